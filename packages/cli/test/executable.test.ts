import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.js', import.meta.url));
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

const ensign = (args: string[], env: Record<string, string> = {}): Promise<Outcome> =>
  new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ENSIGN_')));
    execFile(process.execPath, [main, ...args], { env: { ...clean, ...env }, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });

test('an invalid configuration value exits 2 with exactly one line on stderr naming the key', async (t) => {
  const result = await ensign(['server'], { ENSIGN_SERVER_HTTP_PORT: 'abc' });
  t.is(result.code, 2);
  t.is(result.stderr, 'ensign: invalid configuration: server.http_port: must be an integer between 1 and 65535 (got "abc")\n');
  t.is(result.stdout, '');
});

test('migrate refuses an invalid configuration the same way', async (t) => {
  const result = await ensign(['migrate'], { ENSIGN_DB_URL: 'oracle://db/x' });
  t.is(result.code, 2);
  t.is(result.stderr, 'ensign: invalid configuration: db.url: unsupported scheme "oracle" (got "oracle://db/x")\n');
});

test('evaluator without nats.url exits 2 with one line naming the key, and opens no database', async (t) => {
  const result = await ensign(['evaluator'], { ENSIGN_DB_URL: 'file:/nonexistent-dir/never.db' });
  t.is(result.code, 2);
  t.is(result.stderr, 'ensign: invalid configuration: nats.url: must be set for ensign evaluator, which reads its snapshots from NATS\n');
  t.is(result.stdout, '');
});

test('a missing configuration file exits 2 naming the file', async (t) => {
  const result = await ensign(['server', '--config', '/does/not/exist.yml']);
  t.is(result.code, 2);
  t.is(result.stderr, 'ensign: invalid configuration: cannot read configuration file "/does/not/exist.yml": ENOENT\n');
});

test('--version prints the package version, the commit and the build date', async (t) => {
  const result = await ensign(['--version']);
  t.is(result.code, 0);
  t.regex(result.stdout, new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
  t.regex(result.stdout, /^Commit: dev$/m);
  t.regex(result.stdout, /^Build Date: \d{4}-\d{2}-\d{2}T/m);
});

test('--help exits 0 and lists the commands', async (t) => {
  const result = await ensign(['--help']);
  t.is(result.code, 0);
  t.regex(result.stdout, /^ {2}server /m);
  t.regex(result.stdout, /^ {2}migrate /m);
  t.is(result.stderr, '');
});

test('an unknown command or flag prints the usage on stderr and exits 2', async (t) => {
  for (const args of [['launch'], ['server', '--bogus']]) {
    const result = await ensign(args);
    t.is(result.code, 2, args.join(' '));
    t.regex(result.stderr, /^ensign: /);
    t.regex(result.stderr, /Usage: ensign <command>/);
    t.is(result.stdout, '');
  }
});
