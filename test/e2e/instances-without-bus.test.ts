/**
 * Flipt's own multi-instance setup: several `ensign server`s on one database and no NATS. What is
 * written through one server (or by `ensign import` beside them) is evaluated, read and trusted
 * by the others on their own, at the default revision poll.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createTestDatabase, type EnsignProcess, type JsonClient, runEnsign, scratchDir, startEnsign, type TestDialect } from '@ensign/testkit';
import { bearerClient, ok } from '../helpers/api.js';

const BOOTSTRAP = 'bootstrap-s3cr3t-for-instances';
const processes: EnsignProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  for (const cleanup of cleanups) await cleanup();
});

/** A server on `url` with no NATS, tokens required, and its management reads cached in memory. */
async function server(url: string): Promise<EnsignProcess> {
  const p = await startEnsign({
    env: {
      ENSIGN_DB_URL: url,
      ENSIGN_NATS_URL: undefined,
      ENSIGN_AUTHENTICATION_REQUIRED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
      ENSIGN_CACHE_ENABLED: 'true',
    },
  });
  processes.push(p);
  return p;
}

async function database(dialect: TestDialect): Promise<string> {
  const db = await createTestDatabase(dialect);
  cleanups.push(() => db.drop());
  return db.url;
}

const as = (p: EnsignProcess, token: string): JsonClient => bearerClient(p.baseUrl, token);

/** Polls (bounded, ~15 s) until `read` gives `expected`; resolves the last value read. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let last = await read();
  for (let i = 0; i < 300 && JSON.stringify(last) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

/** What `api` answers for a boolean flag: its status and, when 200, whether it is enabled. */
async function booleanOf(api: JsonClient, namespaceKey: string, flagKey: string): Promise<{ status: number; enabled?: boolean }> {
  const res = await api.post('/evaluate/v1/boolean', { namespaceKey, flagKey, entityId: 'u1', context: {} });
  return res.status === 200 ? { status: 200, enabled: res.body.enabled } : { status: res.status };
}

/** A Flipt document of one namespace holding one enabled boolean flag. */
function document(dir: string, namespace: string, flagKey: string): string {
  const path = join(dir, `${namespace}-${flagKey}.yml`);
  writeFileSync(path, `version: "1.4"\nnamespace:\n  key: ${namespace}\n  name: ${namespace}\nflags:\n  - key: ${flagKey}\n    name: ${flagKey}\n    type: BOOLEAN_FLAG_TYPE\n    enabled: true\n`);
  return path;
}

async function importInto(url: string, file: string): Promise<void> {
  const result = await runEnsign(['import', file], { env: { ENSIGN_DB_URL: url } });
  if (result.code !== 0) throw new Error(`ensign import failed (exit ${result.code}): ${result.stderr}${result.stdout}`);
}

async function twoServers(t: ExecutionContext, dialect: TestDialect): Promise<void> {
  const url = await database(dialect);
  const [a, b] = await Promise.all([server(url), server(url)]);
  const [apiA, apiB] = [as(a, BOOTSTRAP), as(b, BOOTSTRAP)];
  const ns = 'team';
  const flagPath = `/api/v1/namespaces/${ns}/flags/beta`;

  // B has read (and cached) the namespace list and knows no flag before A writes.
  t.is((await apiB.get(`/api/v1/namespaces/${ns}`)).status, 404);
  ok(await apiA.post('/api/v1/namespaces', { key: ns, name: ns }), 'create namespace through A');
  ok(await apiA.post(`/api/v1/namespaces/${ns}/flags`, { key: 'beta', name: 'beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true }), 'create flag through A');
  t.deepEqual(await until(() => booleanOf(apiB, ns, 'beta'), { status: 200, enabled: true }), { status: 200, enabled: true }, 'B evaluates the flag A created');
  t.is((await apiB.get(flagPath)).body.enabled, true);

  ok(await apiA.put(flagPath, { key: 'beta', name: 'beta', enabled: false }), 'disable through A');
  t.deepEqual(await until(() => booleanOf(apiB, ns, 'beta'), { status: 200, enabled: false }), { status: 200, enabled: false }, 'disabling it through A changes B');
  t.is(await until(async () => (await apiB.get(flagPath)).body.enabled, false), false, "B's cached management read follows too");

  // A token created through A opens B's evaluations (checked there against its own digest set).
  const created = ok(await apiA.post('/auth/v1/method/token', { name: 'ci', description: 'made on A' }), 'token through A');
  const token = created.clientToken as string;
  t.is(await until(async () => (await booleanOf(as(b, token), ns, 'beta')).status, 200), 200, "A's new token is accepted by B");
  ok(await apiA.del(`/auth/v1/tokens/${created.authentication.id}`), 'delete the token through A');
  t.is(await until(async () => (await booleanOf(as(b, token), ns, 'beta')).status, 401), 401, "the token deleted through A is refused by B");

  // `ensign import` beside both running servers.
  await importInto(url, document(scratchDir(), ns, 'imported'));
  for (const [name, api] of [['A', apiA], ['B', apiB]] as const) {
    t.deepEqual(await until(() => booleanOf(api, ns, 'imported'), { status: 200, enabled: true }), { status: 200, enabled: true }, `${name} serves the imported flag`);
  }

  ok(await apiB.del(`/api/v1/namespaces/${ns}?force=true`), 'delete the namespace through B');
  t.is((await until(() => booleanOf(apiA, ns, 'beta'), { status: 404 })).status, 404, 'A forgets the namespace B deleted');
}

test('PostgreSQL: two servers without NATS see each other\'s writes, tokens and imports', (t) => twoServers(t, 'postgres'));

test('MySQL: two servers without NATS see each other\'s writes, tokens and imports', (t) => twoServers(t, 'mysql'));

test('SQLite: a server serves what `ensign import` writes into its file', async (t) => {
  const url = await database('sqlite');
  const api = as(await server(url), BOOTSTRAP);
  const dir = scratchDir();
  t.is((await booleanOf(api, 'shop', 'checkout')).status, 404);
  await importInto(url, document(dir, 'shop', 'checkout'));
  t.deepEqual(await until(() => booleanOf(api, 'shop', 'checkout'), { status: 200, enabled: true }), { status: 200, enabled: true });
  await importInto(url, document(dir, 'shop', 'cart'));
  t.deepEqual(await until(() => booleanOf(api, 'shop', 'cart'), { status: 200, enabled: true }), { status: 200, enabled: true }, 'a second import into an existing namespace');
  t.is((await api.get('/api/v1/namespaces/shop/flags')).body.flags.length, 2);
});
