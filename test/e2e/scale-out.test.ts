/**
 * Scale-out end to end: one `ensign server` (SQLite) publishing to NATS, `ensign evaluator`
 * processes on the same bucket answering evaluations exactly as the server does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { type EnsignProcess, freePort, jsonClient, type JsonClient, startEnsign } from '@ensign/testkit';
import { connect } from 'nats';
import { ok } from '../helpers/api.js';
import { SHOP_FLAGS, seedShop } from '../helpers/evaluation-seed.js';

const NATS_URL = 'nats://127.0.0.1:4222';
const id = randomBytes(6).toString('hex');
const bucket = `ensign_t_${id}`;
const objectStore = `ensign_t_docs_${id}`;
const natsEnv = (url = NATS_URL) => ({ ENSIGN_NATS_URL: url, ENSIGN_NATS_BUCKET: bucket, ENSIGN_NATS_OBJECT_STORE: objectStore });

const processes: EnsignProcess[] = [];
const proxies: Server[] = [];
let sharedServer: EnsignProcess | undefined;

test.after.always(async () => {
  for (const proxy of proxies) proxy.close();
  await Promise.all(processes.map((p) => p.stop()));
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const stream of [`KV_${bucket}`, `OBJ_${objectStore}`]) await jsm.streams.delete(stream).catch(() => false);
  await nc.close();
});

async function start(command: 'server' | 'evaluator', options: { natsUrl?: string; waitFor?: 'healthy' | 'listening' } = {}): Promise<EnsignProcess> {
  // A short reconcile interval, so the test of the reconcile loop needs no long wait.
  const env = { ...natsEnv(options.natsUrl), ENSIGN_NATS_RECONCILE_INTERVAL: '300ms' };
  const p = await startEnsign({ command, env, ...(options.waitFor ? { waitFor: options.waitFor } : {}) });
  processes.push(p);
  return p;
}

/** What must be equal between the server and an evaluator (request ids, timestamps and durations differ). */
function comparable(res: { status: number; body: unknown }): unknown {
  return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null, (key, value) => (VARYING.has(key) ? undefined : value))) };
}
const VARYING = new Set(['requestId', 'timestamp', 'requestDurationMillis']);

/** Every flag of the shop evaluated for a few entities, as one batch. */
function shopBatch(ns: string) {
  const requests = SHOP_FLAGS.flatMap((flagKey) =>
    ['u1', 'vip', 'ann'].map((entityId) => ({ namespaceKey: ns, flagKey, entityId, context: { plan: 'pro', email: 'ann@corp.example' } })),
  );
  return { requests };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until every evaluator answers `path` as the server does (bounded), then returns the last answers. */
async function converge(server: JsonClient, evaluators: JsonClient[], path: string, body: unknown): Promise<{ expected: unknown; got: unknown[] }> {
  const expected = comparable(await server.post(path, body));
  let got: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    got = await Promise.all(evaluators.map(async (e) => comparable(await e.post(path, body))));
    if (got.every((g) => JSON.stringify(g) === JSON.stringify(expected))) break;
    await delay(50);
  }
  return { expected, got };
}

/** Forwards a local port to NATS while it is open, so a test can decide when NATS becomes reachable. */
function proxyToNats(port: number): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(4222, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  proxies.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

test.serial('writes through the server are evaluated identically by two evaluators; deletes and restarts converge', async (t) => {
  sharedServer = await start('server');
  const server = sharedServer;
  const api = jsonClient(server.baseUrl);
  let ev1 = await start('evaluator');
  const ev2 = await start('evaluator');
  t.false(existsSync(join(ev1.cwd, 'data')), 'the evaluator opens no database');

  const shop = await seedShop(api, 'scale');
  const batch = shopBatch(shop.ns);
  let { expected, got } = await converge(api, [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)], '/evaluate/v1/batch', batch);
  t.deepEqual(got, [expected, expected], 'a seeded namespace evaluates the same everywhere');
  t.is((expected as { status: number }).status, 200);

  // An update: `off` enabled changes its reason from FLAG_DISABLED to a match.
  const flag = ok(await api.get(`${shop.base}/flags/off`));
  ok(await api.put(`${shop.base}/flags/off`, { key: 'off', name: flag.name, enabled: true, defaultVariantId: flag.defaultVariant?.id }));
  ({ expected, got } = await converge(api, [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)], '/evaluate/v1/batch', batch));
  t.deepEqual(got, [expected, expected], 'an update reaches both evaluators');

  // A flag delete: the evaluators answer 404 like the server.
  ok(await api.del(`${shop.base}/flags/plain`));
  const plain = { namespaceKey: shop.ns, flagKey: 'plain', entityId: 'u1' };
  ({ expected, got } = await converge(api, [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)], '/evaluate/v1/variant', plain));
  t.like(expected, { status: 404 });
  t.deepEqual(got, [expected, expected], 'a deleted flag is gone everywhere');

  // kill -9 one evaluator, write while it is down, start it again: it serves the current state.
  await ev1.kill9();
  ok(await api.del(`${shop.base}/flags/split`));
  ev1 = await start('evaluator');
  const split = { namespaceKey: shop.ns, flagKey: 'split', entityId: 'u1' };
  const afterRestart = comparable(await jsonClient(ev1.baseUrl).post('/evaluate/v1/variant', split));
  t.deepEqual(afterRestart, comparable(await api.post('/evaluate/v1/variant', split)), 'a restarted evaluator serves the current state once healthy');
  t.like(afterRestart, { status: 404 });
  ({ expected, got } = await converge(api, [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)], '/evaluate/v1/batch', batch));
  t.deepEqual(got, [expected, expected]);

  // /health lists the namespace with its revision.
  const health = await jsonClient(ev2.baseUrl).get('/health');
  t.is(health.status, 200);
  t.is(health.body.status, 'SERVING');
  t.true(Number.isInteger(health.body.namespaces[shop.ns].revision));
  t.true(health.body.namespaces[shop.ns].ageSeconds >= 0);

  // A namespace delete propagates: the evaluators answer like the server and stop listing it.
  ok(await api.del(`/api/v1/namespaces/${shop.ns}?force=true`));
  const color = { namespaceKey: shop.ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } };
  ({ expected, got } = await converge(api, [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)], '/evaluate/v1/variant', color));
  t.like(expected, { status: 404 });
  t.deepEqual(got, [expected, expected], 'a deleted namespace is gone everywhere');
  for (const ev of [ev1, ev2]) t.false(shop.ns in (await jsonClient(ev.baseUrl).get('/health')).body.namespaces);

  // Anything else is Flipt's 404 body.
  const other = await jsonClient(ev2.baseUrl).get('/api/v1/namespaces');
  t.is(other.status, 404);
  t.deepEqual(other.body, { code: 5, message: 'Not Found', details: [] });

  t.is(await ev2.stop('SIGTERM'), 0, 'SIGTERM stops an evaluator cleanly');
});

test.serial('a snapshot missing from the bucket is republished by the server\'s reconcile loop', async (t) => {
  sharedServer ??= await start('server');
  const api = jsonClient(sharedServer.baseUrl);
  const shop = await seedShop(api, 'heal');
  const ev = await start('evaluator');
  const evApi = jsonClient(ev.baseUrl);
  const batch = shopBatch(shop.ns);
  let { expected, got } = await converge(api, [evApi], '/evaluate/v1/batch', batch);
  t.deepEqual(got, [expected]);
  const revision = (await evApi.get('/health')).body.namespaces[shop.ns].revision as number;

  // Lose the namespace's entry behind the server's back (the bus's key: "ns." + base64url of the namespace key).
  const nc = await connect({ servers: NATS_URL });
  t.teardown(() => nc.close());
  const kv = await nc.jetstream().views.kv(bucket);
  await kv.delete(`ns.${Buffer.from(shop.ns, 'utf8').toString('base64url')}`);

  let held: { revision: number } | undefined;
  for (let i = 0; i < 200; i++) {
    await delay(50);
    held = (await evApi.get('/health')).body.namespaces[shop.ns];
    const entry = await kv.get(`ns.${Buffer.from(shop.ns, 'utf8').toString('base64url')}`);
    if (entry?.operation === 'PUT' && held !== undefined) break;
  }
  t.is(held?.revision, revision, 'the reconcile loop put the namespace back at its database revision');
  const reconciled = sharedServer.logs().split('\n').filter((line) => line.includes('snapshot bucket reconciled') && line.includes(shop.ns));
  t.true(reconciled.length > 0, 'the server logged the namespace as republished');
  ({ expected, got } = await converge(api, [evApi], '/evaluate/v1/batch', batch));
  t.deepEqual(got, [expected]);
});

test.serial('an evaluator that cannot reach NATS yet is NOT_SERVING, then SERVING once it syncs', async (t) => {
  sharedServer ??= await start('server');
  const server = sharedServer;
  const api = jsonClient(server.baseUrl);
  const shop = await seedShop(api, 'late');
  const port = await freePort();
  const ev = await start('evaluator', { natsUrl: `nats://127.0.0.1:${port}`, waitFor: 'listening' });
  const evApi = jsonClient(ev.baseUrl);
  const before = await evApi.get('/health');
  t.is(before.status, 503);
  t.deepEqual(before.body, { status: 'NOT_SERVING' });
  const refused = await evApi.post('/evaluate/v1/variant', { namespaceKey: shop.ns, flagKey: 'color', entityId: 'u1' });
  t.is(refused.status, 503, 'no answers before the initial sync');

  await proxyToNats(port);
  let after = before;
  for (let i = 0; i < 200 && after.status !== 200; i++) {
    await delay(50);
    after = await evApi.get('/health');
  }
  t.is(after.status, 200, after.text);
  t.is(after.body.status, 'SERVING');
  t.true(shop.ns in after.body.namespaces);
  const color = { namespaceKey: shop.ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } };
  t.deepEqual(comparable(await evApi.post('/evaluate/v1/variant', color)), comparable(await api.post('/evaluate/v1/variant', color)));
  t.is(await server.stop('SIGTERM'), 0, 'the server stops its reconcile loop and NATS connection and exits 0');
});
