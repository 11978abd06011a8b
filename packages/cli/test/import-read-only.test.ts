/** `ensign import` into the database is refused, before reading anything, when flags are served from files or the database is read-only. */
import test from 'ava';
import { importCommand } from '../src/commands/import.command.js';
import { loadConfig } from '../src/config/config.loader.js';

const io = () => {
  const out = { stdout: '', stderr: '' };
  return { out, sink: { stdout: (text: string) => void (out.stdout += text), stderr: (text: string) => void (out.stderr += text) } };
};

for (const env of [{ ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_LOCAL_PATH: '.' }, { ENSIGN_STORAGE_READ_ONLY: 'true' }]) {
  test(`refused with Flipt's read-only message: ${JSON.stringify(env)}`, async (t) => {
    const { config } = loadConfig({ env });
    const { out, sink } = io();
    const code = await importCommand(config, { file: '/nonexistent/never-read.yml', drop: false, skipExisting: false, remote: undefined }, sink);
    t.is(code, 1);
    t.regex(out.stderr, /^ensign: import failed: modification is not allowed in read-only mode \(storage\.type is \w+\)\n$/);
    t.is(out.stdout, '');
  });
}
