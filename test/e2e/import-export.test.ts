/**
 * `ensign export` and `ensign import` as a user runs them: against SQLite files of their own and
 * against a running server (`--address`), round trips byte for byte, refusals that write nothing.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ensignMain, eventually, jsonClient, runEnsign, scratchDir, startEnsign, type CommandResult, type EnsignProcess } from '@ensign/testkit';
import { ok } from '../helpers/api.js';
import { seedShop } from '../helpers/evaluation-seed.js';

const dir = scratchDir('ensign-import-export-');
let database = 0;
/** A SQLite file no other test uses. */
const freshDatabase = (): string => `file:${join(dir, `db-${++database}.db`)}`;

const ensign = (url: string, args: string[]): Promise<CommandResult> => runEnsign(args, { env: { ENSIGN_DB_URL: url }, cwd: dir });

/** `ensign <args>` with `input` on its stdin. */
function ensignWithStdin(url: string, args: string[], input: string): Promise<CommandResult> {
  return new Promise((resolve) => {
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ENSIGN_'))), ENSIGN_DB_URL: url };
    const child = spawn(process.execPath, [ensignMain, ...args], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** What `ensign import` prints of one kind of key. */
const counts = (created: number, updated: number, unchanged: number, deleted: number): string => `${created} created, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted`;

let seeded: { url: string; server: EnsignProcess; namespaces: string[] } | undefined;

/** A database seeded through the API of a server that keeps running (for --address). */
async function source(): Promise<NonNullable<typeof seeded>> {
  if (seeded !== undefined) return seeded;
  const url = freshDatabase();
  const server = await startEnsign({ env: { ENSIGN_DB_URL: url } });
  const api = jsonClient(server.baseUrl);
  const shop = await seedShop(api, 'shop');
  const other = await seedShop(api, 'other');
  ok(await api.put(`/api/v1/namespaces/${other.ns}`, { name: 'Other shop', description: 'the second one' }), 'describe namespace');
  seeded = { url, server, namespaces: [shop.ns, other.ns] };
  return seeded;
}

test.after.always(async () => {
  await seeded?.server.stop();
});

test.serial('export --all-namespaces --sort-by-key, import into a fresh database, export again: the same bytes; the imported flags evaluate', async (t) => {
  const { url, namespaces } = await source();
  const first = await ensign(url, ['export', '--all-namespaces', '--sort-by-key']);
  t.is(first.code, 0, first.stderr);
  t.is(first.stderr, '');
  t.true(first.stdout.startsWith('version: "1.4"\nnamespace:\n  key: default\n'), first.stdout.slice(0, 80));
  t.is(first.stdout.split('\n---\n').length, 3);

  const target = freshDatabase();
  const imported = await ensign(target, ['import', file('all.yml', first.stdout)]);
  t.is(imported.code, 0, imported.stderr);
  t.deepEqual(imported.stdout.trim().split('\n').sort(), [
    `imported namespace "default" (revision 2): flags ${counts(0, 0, 0, 0)}; segments ${counts(0, 0, 0, 0)}`,
    ...namespaces.map((ns) => `created and imported namespace "${ns}" (revision 1): flags ${counts(6, 0, 0, 0)}; segments ${counts(4, 0, 0, 0)}`),
  ].sort());

  const again = await ensign(target, ['export', '--all-namespaces', '--sort-by-key']);
  t.is(again.code, 0, again.stderr);
  t.is(again.stdout, first.stdout);

  const server = await startEnsign({ env: { ENSIGN_DB_URL: target } });
  t.teardown(() => server.stop());
  const api = jsonClient(server.baseUrl);
  const [ns] = namespaces;
  t.like(ok(await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } })), { match: true, variantKey: 'blue', variantAttachment: '{"hex":"#00f"}' });
  t.like(ok(await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'off', entityId: 'u1' })), { variantKey: 'red', reason: 'FLAG_DISABLED_EVALUATION_REASON' });
  t.like(ok(await api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'new-ui', entityId: 'ann', context: { email: 'ann@corp.example' } })), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  const history = ok(await api.get(`/api/v1/namespaces/${ns}/audit/events?action=imported`)) as { events: Array<{ resource: string; key: string }> };
  t.deepEqual(history.events.map((e) => [e.resource, e.key]), [['namespace', ns]], 'one change for the whole namespace');
});

test.serial('export -n, --namespaces and -o file.json (JSON alone, without the YAML header line); the JSON file imports', async (t) => {
  const { url, namespaces } = await source();
  const [shop, other] = namespaces as [string, string];
  const one = await ensign(url, ['export', '-n', other]);
  t.is(one.code, 0, one.stderr);
  t.true(one.stdout.startsWith(`version: "1.4"\nnamespace:\n  key: ${other}\n  name: Other shop\n  description: the second one\nflags:\n- key: color\n`), one.stdout.slice(0, 120));
  const listed = await ensign(url, ['export', '--namespaces', `${other},${shop}`]);
  t.deepEqual(listed.stdout.split('\n---\n').map((doc) => /key: (\S+)/.exec(doc)?.[1]), [other, shop], 'in the order asked');

  const output = join(dir, 'shop.json');
  const written = await ensign(url, ['export', '-n', shop, '-o', output]);
  t.is(written.code, 0, written.stderr);
  t.is(written.stdout, '');
  t.like(JSON.parse(readFileSync(output, 'utf8')), { version: '1.4', namespace: { key: shop } });

  const target = freshDatabase();
  t.is((await ensign(target, ['import', output])).code, 0);
  const back = await ensign(target, ['export', '-n', shop]);
  t.is(back.stdout, (await ensign(url, ['export', '-n', shop])).stdout);
});

test.serial('a bad document is refused with its document and path, and nothing of the input is imported', async (t) => {
  const target = freshDatabase();
  t.is((await ensign(target, ['migrate'])).code, 0);
  const bad = file(
    'bad.yml',
    [
      'namespace: first',
      'flags:',
      '- key: fine',
      '  name: Fine',
      '---',
      'namespace: second',
      'flags:',
      '- key: color',
      '  name: Color',
      '  variants: [{key: blue}]',
      '  rules:',
      '  - segment: everyone',
      '    distributions: [{variant: blu, rollout: 100}]',
      'segments:',
      '- key: everyone',
      '  name: Everyone',
      '',
    ].join('\n'),
  );
  const refused = await ensign(target, ['import', bad]);
  t.is(refused.code, 1);
  t.is(refused.stderr, `ensign: import failed: ${bad}: document 2 (namespace "second"): flags[0].rules[0].distributions[0].variant: no variant "blu" in flag "color"\n`);
  t.is(refused.stdout, '');
  const after = await ensign(target, ['export', '--all-namespaces']);
  t.is(after.code, 0, after.stderr);
  t.is(after.stdout, 'version: "1.4"\nnamespace:\n  key: default\n  name: Default\n  description: Default namespace\n');

  const unparsable = await ensign(target, ['import', file('broken.yml', 'flags: [\n')]);
  t.is(unparsable.code, 1);
  t.regex(unparsable.stderr, /^ensign: import failed: document 1: not valid YAML: .+ at line \d+, column \d+\n$/);
  const missing = await ensign(target, ['export', '-n', 'nope']);
  t.deepEqual([missing.code, missing.stderr], [1, 'ensign: export failed: namespace "nope" not found\n']);
  const usage = await ensign(target, ['import']);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /^ensign: import needs a file \(or --stdin\)\n/);
});

test.serial('a key that exists is refused without --drop or --skip-existing; --skip-existing keeps it, --drop replaces the namespace', async (t) => {
  const target = freshDatabase();
  const first = file('first.yml', 'namespace: ns\nflags:\n- key: a\n  name: A\n- key: b\n  name: B\n');
  const second = file('second.yml', 'namespace: ns\nflags:\n- key: a\n  name: A again\n- key: c\n  name: C\n');
  t.is((await ensign(target, ['import', first])).code, 0);
  const refused = await ensign(target, ['import', second]);
  t.deepEqual([refused.code, refused.stderr], [1, `ensign: import failed: ${second}: document 1 (namespace "ns"): flags[0].key: flag "a" already exists in namespace "ns" (import again with --skip-existing to keep what the namespace has, or with --drop to replace its flags and segments with the input's)\n`]);
  const skipped = await ensign(target, ['import', '--skip-existing', second]);
  t.is(skipped.stdout, `imported namespace "ns" (revision 2): flags ${counts(1, 0, 1, 0)}; segments ${counts(0, 0, 0, 0)}\n`, 'the refused import moved no revision');
  const names = async () => [...(await ensign(target, ['export', '-n', 'ns'])).stdout.matchAll(/^ {2}name: (.+)$/gm)].map((m) => m[1]);
  t.deepEqual(await names(), ['ns', 'A', 'B', 'C']);
  const dropped = await ensign(target, ['import', '--drop', second]);
  t.is(dropped.stdout, `imported namespace "ns" (revision 3): flags ${counts(0, 1, 1, 1)}; segments ${counts(0, 0, 0, 0)}\n`);
  t.deepEqual(await names(), ['ns', 'A again', 'C']);
});

test.serial('--stdin reads YAML from standard input', async (t) => {
  const target = freshDatabase();
  const result = await ensignWithStdin(target, ['import', '--stdin'], 'version: "1.2"\nnamespace: piped\nflags:\n- key: f\n  name: F\n  enabled: true\n');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `created and imported namespace "piped" (revision 1): flags ${counts(1, 0, 0, 0)}; segments ${counts(0, 0, 0, 0)}\n`);
  t.regex((await ensign(target, ['export', '-n', 'piped'])).stdout, /- key: f\n {2}name: F\n {2}type: VARIANT_FLAG_TYPE\n {2}enabled: true\n/);
});

test.serial('--address: export through the management API equals the database export; import through the server', async (t) => {
  const { url, server } = await source();
  const fromDatabase = await ensign(url, ['export', '--all-namespaces', '--sort-by-key']);
  const fromServer = await ensign(freshDatabase(), ['export', '--all-namespaces', '--sort-by-key', '-a', server.baseUrl]);
  t.is(fromServer.code, 0, fromServer.stderr);
  t.is(fromServer.stdout, fromDatabase.stdout);

  const target = freshDatabase();
  const empty = await startEnsign({ env: { ENSIGN_DB_URL: target } });
  t.teardown(() => empty.stop());
  const pushed = await ensign(freshDatabase(), ['import', '-a', empty.baseUrl, file('pushed.yml', fromDatabase.stdout)]);
  t.is(pushed.code, 0, pushed.stderr);
  t.deepEqual(pushed.stdout.trim().split('\n').sort(), [
    `imported namespace "default" (revision 2): flags ${counts(0, 0, 0, 0)}; segments ${counts(0, 0, 0, 0)}`,
    ...seeded!.namespaces.map((ns) => `created and imported namespace "${ns}" (revision 1): flags ${counts(6, 0, 0, 0)}; segments ${counts(4, 0, 0, 0)}`),
  ].sort());
  t.is((await ensign(freshDatabase(), ['export', '--all-namespaces', '--sort-by-key', '-a', empty.baseUrl])).stdout, fromDatabase.stdout);
  const conflict = await ensign(freshDatabase(), ['import', '-a', empty.baseUrl, file('pushed-again.yml', fromDatabase.stdout)]);
  t.is(conflict.code, 1);
  t.regex(conflict.stderr, /^ensign: import failed: document 2 \(namespace "[^"]+"\): segments\[0\]\.key: segment "everyone" already exists in namespace "[^"]+" \(import again with --skip-existing to keep what the namespace has, or with --drop to replace its flags and segments with the input's\)\n$/);
});

/** Each item's creation time by key, as a list route answers them. */
const createdAtByKey = (items: Array<{ key: string; createdAt: string }>): Record<string, string> => Object.fromEntries(items.map((item) => [item.key, item.createdAt]));

test.serial('--from: a server\'s namespace into the database keeps when each flag and segment was created there, so "Stale only" finds a flag older than the window at once', async (t) => {
  const origin = await startEnsign({ env: { ENSIGN_DB_URL: freshDatabase() } });
  t.teardown(() => origin.stop());
  const api = jsonClient(origin.baseUrl);
  const ns = 'migrated';
  ok(await api.post('/api/v1/namespaces', { key: ns, name: 'Migrated' }), 'namespace');
  ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' }), 'segment');
  for (const key of ['old-a', 'old-b']) ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true }), key);
  const originFlags = ok(await api.get(`/api/v1/namespaces/${ns}/flags`), 'flags').flags;
  const originSegments = ok(await api.get(`/api/v1/namespaces/${ns}/segments`), 'segments').segments;
  const newest = Math.max(...originFlags.map((f: { createdAt: string }) => Date.parse(f.createdAt)));
  // Seconds between the flags' creation and the import, so a usage window can end in between.
  t.true(await eventually(() => Date.now() - newest > 3000));

  const target = freshDatabase();
  const importStarted = Date.now();
  const imported = await ensign(target, ['import', '--from', origin.baseUrl, '-n', ns]);
  t.is(imported.code, 0, imported.stderr);
  t.is(imported.stdout, `created and imported namespace "${ns}" (revision 1): flags ${counts(2, 0, 0, 0)}; segments ${counts(1, 0, 0, 0)}\n`);

  const served = await startEnsign({ env: { ENSIGN_DB_URL: target } });
  t.teardown(() => served.stop());
  const targetApi = jsonClient(served.baseUrl);
  t.deepEqual(createdAtByKey(ok(await targetApi.get(`/api/v1/namespaces/${ns}/flags`), 'imported flags').flags), createdAtByKey(originFlags));
  t.deepEqual(createdAtByKey(ok(await targetApi.get(`/api/v1/namespaces/${ns}/segments`), 'imported segments').segments), createdAtByKey(originSegments));

  // A window that starts after the flags were created and before the import: never evaluated in it, they are stale.
  const windowMs = Math.round(Date.now() - (newest + importStarted) / 2);
  const stale = ok(await targetApi.get(`/api/v1/namespaces/${ns}/usage?window=${windowMs}ms&stale=true`), 'stale flags').flags;
  t.deepEqual(stale.map((f: { flagKey: string; status: string }) => [f.flagKey, f.status]), [['old-a', 'inactive'], ['old-b', 'inactive']]);
});
