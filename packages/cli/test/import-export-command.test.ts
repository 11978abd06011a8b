/**
 * What `ensign import` and `ensign export` tell and write: per namespace, how many flags and
 * segments an import created, updated, left unchanged and deleted (into the database and through a
 * running server alike), refusals that name the ways forward, and JSON exports that are JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { scratchDir, startEnsign } from '@ensign/testkit';
import { exportCommand } from '../src/commands/export.command.js';
import { importCommand } from '../src/commands/import.command.js';
import { loadConfig } from '../src/config/config.loader.js';
import type { RemoteTarget } from '../src/transfer-flags.js';

const dir = scratchDir('ensign-import-command-');
let files = 0;

const file = (text: string, extension = 'yml'): string => {
  const path = join(dir, `input-${++files}.${extension}`);
  writeFileSync(path, text);
  return path;
};

/** A configuration on a SQLite file no other test uses. */
const freshConfig = () => loadConfig({ env: { ENSIGN_DB_URL: `file:${join(dir, `db-${++files}.db`)}` } }).config;

async function run(command: (io: { stdout(text: string): void; stderr(text: string): void }) => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await command({ stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

type Config = ReturnType<typeof freshConfig>;
const importInto = (config: Config, path: string, options: { drop?: boolean; skipExisting?: boolean; remote?: RemoteTarget } = {}) =>
  run((io) => importCommand(config, { file: path, drop: options.drop ?? false, skipExisting: options.skipExisting ?? false, remote: options.remote }, io));

const SHOP = [
  'namespace: shop',
  'flags:',
  '- key: checkout',
  '  name: Checkout',
  '  rules:',
  '  - segment: beta',
  '- key: banner',
  '  name: Banner',
  'segments:',
  '- key: beta',
  '  name: Beta',
  '  match_type: ALL_MATCH_TYPE',
  '',
].join('\n');

/** The same namespace with `checkout` renamed, `banner` gone and `search` new. */
const SHOP_EDITED = [
  'namespace: shop',
  'flags:',
  '- key: checkout',
  '  name: Checkout (renamed)',
  '  rules:',
  '  - segment: beta',
  '- key: search',
  '  name: Search',
  'segments:',
  '- key: beta',
  '  name: Beta',
  '  match_type: ALL_MATCH_TYPE',
  '',
].join('\n');

const counts = (created: number, updated: number, unchanged: number, deleted: number) => `${created} created, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted`;

/** The import lines both ways of importing print for the same documents. */
async function importSequence(t: import('ava').ExecutionContext, config: Config, remote?: RemoteTarget): Promise<void> {
  const first = await importInto(config, file(SHOP), { remote });
  t.is(first.code, 0, first.stderr);
  t.is(first.stdout, `created and imported namespace "shop" (revision 1): flags ${counts(2, 0, 0, 0)}; segments ${counts(1, 0, 0, 0)}\n`);

  const identical = await importInto(config, file(SHOP), { drop: true, remote });
  t.is(identical.code, 0, identical.stderr);
  t.is(identical.stdout, `imported namespace "shop" (revision 2): flags ${counts(0, 0, 2, 0)}; segments ${counts(0, 0, 1, 0)}\n`, 'an identical import with --drop changed nothing');

  const edited = await importInto(config, file(SHOP_EDITED), { drop: true, remote });
  t.is(edited.code, 0, edited.stderr);
  t.is(edited.stdout, `imported namespace "shop" (revision 3): flags ${counts(1, 1, 0, 1)}; segments ${counts(0, 0, 1, 0)}\n`);

  const skipped = await importInto(config, file(SHOP), { skipExisting: true, remote });
  t.is(skipped.code, 0, skipped.stderr);
  t.is(skipped.stdout, `imported namespace "shop" (revision 4): flags ${counts(1, 0, 1, 0)}; segments ${counts(0, 0, 1, 0)}\n`, 'banner is back, checkout was kept as it was');

  const refused = await importInto(config, file(SHOP), { remote });
  t.is(refused.code, 1);
  t.is(refused.stdout, '');
  t.regex(refused.stderr, /^ensign: import failed: .*segment "beta" already exists in namespace "shop" \(import again with --skip-existing to keep what the namespace has, or with --drop to replace its flags and segments with the input's\)\n$/);
}

test('into the database: created, updated, unchanged and deleted flags and segments; a clash names --skip-existing and --drop', async (t) => {
  await importSequence(t, freshConfig());
});

test('through a running server (--address): the same lines as into the database', async (t) => {
  const server = await startEnsign({ env: { ENSIGN_DB_URL: `file:${join(dir, 'served.db')}` } });
  t.teardown(() => server.stop());
  // The database behind the command line is never opened for a remote import.
  await importSequence(t, freshConfig(), { address: server.baseUrl, token: undefined });
});

test('the documents of one namespace in one input count each key once', async (t) => {
  const config = freshConfig();
  t.is((await importInto(config, file(SHOP))).code, 0);
  const twoDocuments = file([SHOP_EDITED, 'namespace: shop\nflags:\n- key: banner\n  name: Banner\n'].join('---\n'));
  const result = await importInto(config, twoDocuments, { drop: true });
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `imported namespace "shop" (revision 2): flags ${counts(1, 1, 1, 0)}; segments ${counts(0, 0, 1, 0)}\n`);
});

test('an export to a .json file is JSON (Flipt\'s comment header only goes into YAML files) and imports again', async (t) => {
  const config = freshConfig();
  t.is((await importInto(config, file(SHOP))).code, 0);
  const exportTo = (output: string) => run((io) => exportCommand(config, { output, namespaces: ['shop'], sortByKey: false, remote: undefined }, io));

  const json = join(dir, 'shop.json');
  const written = await exportTo(json);
  t.deepEqual(written, { code: 0, stdout: '', stderr: '' });
  const parsed = JSON.parse(readFileSync(json, 'utf8')) as { namespace: { key: string }; flags: Array<{ key: string }> };
  t.like(parsed, { version: '1.4', namespace: { key: 'shop' } });
  t.deepEqual(parsed.flags.map((f) => f.key), ['checkout', 'banner']);

  const yaml = join(dir, 'shop.yml');
  t.is((await exportTo(yaml)).code, 0);
  t.regex(readFileSync(yaml, 'utf8'), /^# exported by Ensign \(.+\) on \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\n\nversion: "1.4"\n/);

  const again = await importInto(freshConfig(), json);
  t.is(again.code, 0, again.stderr);
  t.is(again.stdout, `created and imported namespace "shop" (revision 1): flags ${counts(2, 0, 0, 0)}; segments ${counts(1, 0, 0, 0)}\n`);
});
