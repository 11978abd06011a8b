/**
 * The write path scaled out: a control plane publishing deltas to NATS and evaluators following
 * them. Random edit sequences leave every evaluator answering exactly as the control plane's own
 * engine; an evaluator started late, or cut off from NATS while deltas flowed, converges through the
 * hydration; a corrupt or out-of-order delta is refused and healed.
 */
import test from 'ava';
import { type EnsignProcess, eventually, freePort, jsonClient, type JsonClient, randomEdits, startEnsign, TcpProxy } from '@ensign/testkit';
import { encodeEnvelope, namespaceKeyToDeltaKey, openSnapshotBus } from '@ensign/bus';
import type { SnapshotDelta } from '@ensign/snapshots';
import { connect } from 'nats';
import { convergeTo, comparable, delay, NATS_PORT, NATS_URL, testBucket } from '../helpers/scale-out.js';

const nats = testBucket();
/** The outage test's own bucket: a control plane reconciling removes every namespace its database lacks, so two over different databases cannot share one. */
const outageNats = testBucket();
const processes: EnsignProcess[] = [];
const proxies: TcpProxy[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all([nats.drop(), outageNats.drop()]);
});

async function start(command: 'server' | 'evaluator', natsUrl?: string, reconcileInterval = '2s', bucket = nats): Promise<EnsignProcess> {
  const p = await startEnsign({ command, env: { ...bucket.env(natsUrl), ENSIGN_NATS_RECONCILE_INTERVAL: reconcileInterval } });
  processes.push(p);
  return p;
}

/** Every flag the sequence created, for a few entities and contexts, as one batch. */
function batchOf(ns: string, flagKeys: string[]): { requests: unknown[] } {
  const contexts = [{ plan: 'pro', country: 'de', seats: '20' }, { plan: 'free', tier: 'us' }];
  return { requests: flagKeys.flatMap((flagKey) => ['u1', 'u2'].flatMap((entityId) => contexts.map((context) => ({ namespaceKey: ns, flagKey, entityId, context })))) };
}

/** Waits until every evaluator answers the batch as the server does now; asserts they do. */
async function assertConverged(t: import('ava').ExecutionContext, server: JsonClient, evaluators: JsonClient[], batch: unknown, what: string): Promise<void> {
  const expected = comparable(await server.post('/evaluate/v1/batch', batch));
  t.is((expected as { status: number }).status, 200, what);
  const got = await convergeTo(expected, evaluators, '/evaluate/v1/batch', batch);
  t.deepEqual(got, evaluators.map(() => expected), what);
}

/** The namespace's revision as an evaluator holds it. */
async function heldRevision(evaluator: JsonClient, ns: string): Promise<number | undefined> {
  return (await evaluator.get('/health')).body?.namespaces?.[ns]?.revision as number | undefined;
}

let server: EnsignProcess;
let api: JsonClient;
let followers: JsonClient[] = [];
let followerProcesses: EnsignProcess[] = [];
const NS = 'deltas';
let flagKeys: string[] = [];

test.serial('random edit sequences leave every evaluator answering as the control plane does', async (t) => {
  server = await start('server');
  api = jsonClient(server.baseUrl);
  followerProcesses = [await start('evaluator'), await start('evaluator')];
  const evaluators = followerProcesses.map((p) => jsonClient(p.baseUrl));
  followers = evaluators;
  t.is((await api.post('/api/v1/namespaces', { key: NS, name: NS })).status, 200);
  for (const seed of [11, 12, 13]) {
    const result = await randomEdits(api, NS, 200, seed);
    flagKeys = [...flagKeys, ...result.flagKeys];
    t.true(result.applied > 100, `seed ${seed}: ${result.applied} edits applied`);
    await assertConverged(t, api, evaluators, batchOf(NS, flagKeys), `after sequence ${seed}`);
  }
  const metrics = await fetch(`${server.baseUrl}/metrics`).then((r) => r.text());
  const published = (kind: string) => Number(new RegExp(`^ensign_snapshot_published_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
  t.true(published('delta') > published('hydration'), `the writes went out as deltas (${published('delta')} deltas, ${published('hydration')} hydrations)`);
});

test.serial('an evaluator started late converges through the hydration and the delta', async (t) => {
  const late = jsonClient((await start('evaluator')).baseUrl);
  await assertConverged(t, api, [late], batchOf(NS, flagKeys), 'a late evaluator');
  t.is(await heldRevision(late, NS), await heldRevision(followers[0] as JsonClient, NS), 'it holds the revision the others hold');
});

test.serial('an evaluator cut off from NATS while deltas flow converges once it is back', async (t) => {
  const proxy = new TcpProxy(NATS_PORT, await freePort());
  proxies.push(proxy);
  await proxy.open();
  const cut = jsonClient((await start('evaluator', proxy.url('nats'))).baseUrl);
  await assertConverged(t, api, [cut], batchOf(NS, flagKeys), 'before the cut');
  await proxy.close();
  const result = await randomEdits(api, NS, 60, 21);
  flagKeys = [...flagKeys, ...result.flagKeys];
  await proxy.open();
  const back = Date.now();
  await assertConverged(t, api, [cut], batchOf(NS, flagKeys), 'after the cut');
  t.log(`converged ${Date.now() - back} ms after NATS was back`);
});

/** Puts `delta` straight into the bucket's delta key of its namespace, past every check of the control plane. */
async function inject(delta: SnapshotDelta): Promise<void> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const kv = await nc.jetstream().views.kv(nats.bucket);
    await kv.put(namespaceKeyToDeltaKey(delta.namespaceKey), (await encodeEnvelope(delta)).value);
  } finally {
    await nc.close();
  }
}

/** The delta the bucket holds for the namespace now. */
async function currentDelta(): Promise<SnapshotDelta> {
  const bus = openSnapshotBus({ url: NATS_URL, bucket: nats.bucket, objectStore: nats.objectStore });
  try {
    const current = await bus.get(NS);
    if (current?.delta === undefined) throw new Error('the bucket holds no delta');
    return current.delta;
  } finally {
    await bus.close();
  }
}

/**
 * The delta the bucket holds once one is there: right after a compaction (after a refused entry the
 * control plane publishes a hydration) the bucket holds none, and the next write brings one.
 */
async function someDelta(): Promise<SnapshotDelta> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await currentDelta();
    } catch (err) {
      if (attempt >= 5) throw err;
      await toggleWrites(1);
      await delay(200);
    }
  }
}

/** `count` writes, each moving the namespace's revision by one: a flag switched on and off. */
async function toggleWrites(count: number): Promise<void> {
  const path = `/api/v1/namespaces/${NS}/flags/toggled`;
  if ((await api.get(path)).status === 404) throw new Error('the flag to toggle is missing');
  for (let i = 0; i < count; i++) {
    const res = await api.put(path, { name: 'Toggled', enabled: i % 2 === 0 });
    if (res.status !== 200) throw new Error(`toggle: ${res.status} ${res.text}`);
  }
}

/** Polls (bounded: 30 s, a request to NATS times out after 5) until the process has logged `text`. */
async function logged(p: EnsignProcess, text: string): Promise<boolean> {
  for (let i = 0; i < 600 && !p.logs().includes(text); i++) await delay(50);
  return p.logs().includes(text);
}

/** The lines in which an evaluator says it refused an entry of the bucket. */
const refusalsOf = (evaluator: EnsignProcess): string[] => evaluator.logs().split('\n').filter((line) => line.includes('refused'));

test.serial('a corrupt delta and an out-of-order delta are refused, and the writes that reach their revisions heal', async (t) => {
  t.is((await api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'toggled', name: 'Toggled', type: 'BOOLEAN_FLAG_TYPE' })).status, 200);
  flagKeys = [...flagKeys, 'toggled'];
  const batch = batchOf(NS, flagKeys);
  const real = await someDelta();
  await assertConverged(t, api, followers, batch, 'before the injections');
  const expected = comparable(await api.post('/evaluate/v1/batch', batch));

  // Corrupt: the next revision, every flag of the delta switched off, the checksum left as it was.
  await inject({ ...real, revision: real.revision + 1, flags: real.flags.map((f) => ({ ...f, enabled: !f.enabled })) });
  t.true(await eventually(() => followerProcesses.every((p) => refusalsOf(p).length === 1)), 'every evaluator read and refused the corrupt delta');
  for (const evaluator of followers) t.deepEqual(comparable(await evaluator.post('/evaluate/v1/batch', batch)), expected, 'the corrupt delta is not taken');
  await toggleWrites(2);
  await assertConverged(t, api, followers, batchOf(NS, flagKeys), 'after the corrupt delta');

  // Out of order: a delta whose base is beyond every version held.
  const now = await someDelta();
  await assertConverged(t, api, followers, batchOf(NS, flagKeys), 'before the out-of-order delta');
  await inject({ ...now, baseRevision: now.revision + 1, revision: now.revision + 2 });
  t.true(await eventually(() => followerProcesses.every((p) => refusalsOf(p).length === 2)), 'every evaluator read and refused the out-of-order delta');
  const steady = comparable(await api.post('/evaluate/v1/batch', batchOf(NS, flagKeys)));
  for (const evaluator of followers) t.deepEqual(comparable(await evaluator.post('/evaluate/v1/batch', batchOf(NS, flagKeys))), steady, 'the out-of-order delta is not taken');
  await toggleWrites(3);
  await assertConverged(t, api, followers, batchOf(NS, flagKeys), 'after the out-of-order delta');
  for (const evaluator of followerProcesses) {
    const refusals = refusalsOf(evaluator);
    t.is(refusals.length, 2, `each refused delta is logged once: ${refusals.join('\n')}`);
  }
});

test.serial('a control plane cut off from NATS catches the evaluators up once NATS is back, and says so', async (t) => {
  const proxy = new TcpProxy(NATS_PORT, await freePort());
  proxies.push(proxy);
  await proxy.open();
  // A reconcile interval far beyond the test: only the reconnect can catch the evaluators up.
  const cut = await start('server', proxy.url('nats'), '10m', outageNats);
  const cutApi = jsonClient(cut.baseUrl);
  const evaluator = jsonClient((await start('evaluator', undefined, '2s', outageNats)).baseUrl);
  const ns = 'outage';
  t.is((await cutApi.post('/api/v1/namespaces', { key: ns, name: ns })).status, 200);
  t.is((await cutApi.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f', name: 'F', type: 'BOOLEAN_FLAG_TYPE', enabled: false })).status, 200);
  const batch = { requests: [{ namespaceKey: ns, flagKey: 'f', entityId: 'u1' }] };
  await assertConverged(t, cutApi, [evaluator], batch, 'before the outage');

  await proxy.close();
  t.is((await cutApi.put(`/api/v1/namespaces/${ns}/flags/f`, { name: 'F', enabled: true })).status, 200, 'a write commits while NATS is away');
  // The write's publish fails while NATS is away (the bucket's request times out): only the
  // reconnect can bring it to the evaluators now.
  t.true(await logged(cut, 'snapshot not published to NATS'), 'the publish failed during the outage');
  await proxy.open();
  const back = Date.now();
  await assertConverged(t, cutApi, [evaluator], batch, 'after the outage');
  t.log(`the evaluator had the write ${Date.now() - back} ms after NATS was back`);
  t.regex(cut.logs(), /NATS reconnected after \d+ ms down/);
  const metrics = await fetch(`${cut.baseUrl}/metrics`).then((r) => r.text());
  t.regex(metrics, /^ensign_nats_reconnects_total 1$/m);
  t.regex(metrics, /^ensign_nats_connected 1$/m);
});
