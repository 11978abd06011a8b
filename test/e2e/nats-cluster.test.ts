/**
 * The bus on a three-server NATS cluster with the bucket replicated three times (`nats.replicas: 3`):
 * one server killed with kill -9 (first JetStream's meta leader, then, once it is back, the bucket's
 * stream leader), while a control plane writes 20 changes a second and two evaluators on different
 * servers serve evaluations. No acknowledged write is lost, no evaluation fails, and every evaluator
 * holds the last acknowledged revision within 5 s of the kill, though the bucket takes no write
 * until its stream has a new leader (4-9 s): changes reach evaluators over core NATS meanwhile.
 */
import test from 'ava';
import { type EnsignProcess, jsonClient, type JsonClient, startEnsign, testBucket } from '@ensign/testkit';
import { EvaluationLoad, FlagWriter } from '../helpers/cluster-load.js';
import { NatsCluster } from '../helpers/nats-cluster.js';

const NS = 'replicated';
const FLAG = 'toggled';
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: NatsCluster | undefined;
const processes: EnsignProcess[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await cluster?.stop();
});

/** The namespace's revision an evaluator holds (its `/health`). */
async function heldRevision(evaluator: JsonClient): Promise<number> {
  try {
    return Number((await evaluator.get('/health')).body?.namespaces?.[NS]?.revision ?? -1);
  } catch {
    return -1;
  }
}

/** The namespace's revision the control plane holds (its client-side snapshot in Ensign's format). */
async function serverRevision(api: JsonClient): Promise<number> {
  return Number((await api.get(`/internal/v1/evaluation/snapshot/namespace/${NS}?format=ensign`)).body?.revision);
}

/** Polls until every evaluator holds at least `revision`; the time it took, or undefined past `withinMs`. */
async function heldByAll(evaluators: JsonClient[], revision: number, withinMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start <= withinMs) {
    const held = await Promise.all(evaluators.map(heldRevision));
    if (held.every((r) => r >= revision)) return Date.now() - start;
    await delay(50);
  }
  return undefined;
}

test('a cluster losing any one server, the meta leader included, loses no write and fails no evaluation', async (t) => {
  t.timeout(240_000);
  cluster = await NatsCluster.start();
  const bucket = testBucket();
  const env = (url: string) => ({ ...bucket.env(url), ENSIGN_NATS_REPLICAS: '3', ENSIGN_NATS_RECONCILE_INTERVAL: '30s' });

  const server = await startEnsign({ command: 'server', env: env(cluster.urls()) });
  processes.push(server);
  const api = jsonClient(server.baseUrl);
  t.is((await api.post('/api/v1/namespaces', { key: NS, name: NS })).status, 200);
  t.is((await api.post(`/api/v1/namespaces/${NS}/flags`, { key: FLAG, name: FLAG, type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status, 200);

  // Different servers: one evaluator is given two of them, the other the third (it learns the rest from the cluster).
  const evaluatorProcesses = [
    await startEnsign({ command: 'evaluator', env: env(cluster.urls(['n1', 'n2'])) }),
    await startEnsign({ command: 'evaluator', env: env(cluster.urls(['n3'])) }),
  ];
  processes.push(...evaluatorProcesses);
  const evaluators = evaluatorProcesses.map((p) => jsonClient(p.baseUrl));
  const base = await serverRevision(api);
  t.truthy(await heldByAll(evaluators, base, 10_000), 'both evaluators hold the namespace');

  const nc = await cluster.connect();
  try {
    const info = await (await nc.jetstreamManager()).streams.info(`KV_${bucket.bucket}`);
    t.is(info.config.num_replicas, 3, 'the bucket is replicated on the three servers');
  } finally {
    await nc.close();
  }

  const writer = new FlagWriter(api, NS, FLAG, 20);
  const load = new EvaluationLoad(evaluators, NS, FLAG, 20);
  let previous: string | undefined;
  try {
    for (const round of [1, 2]) {
      await delay(1000);
      const meta = await cluster.metaLeader();
      // Then the bucket's stream leader, the worst case for writes, unless it is the server just brought back.
      const streamLeader = await cluster.streamLeader(`KV_${bucket.bucket}`);
      const victim = round === 1 ? meta : streamLeader !== previous ? streamLeader : cluster.names().find((name) => name !== previous);
      if (victim === undefined) throw new Error('no meta leader to kill');
      const killedAt = Date.now();
      await cluster.kill(victim);
      const firstAfterKill = base + writer.acknowledged + 1;
      const first = await heldByAll(evaluators, firstAfterKill, 20_000);
      const firstMs = first === undefined ? undefined : Date.now() - killedAt;
      if (firstMs === undefined) t.log(`evaluators hold ${(await Promise.all(evaluators.map(heldRevision))).join(', ')}; ${base + writer.acknowledged} acknowledged`);
      t.truthy(firstMs, `round ${round}: writes made after ${victim} was killed reached every evaluator`);
      // Writes go on for 4 s after the kill: a stream whose leader died elects another after 4-9 s, and its bucket takes no write until then.
      await delay(Math.max(0, killedAt + 4000 - Date.now()));
      await writer.quiet();
      const last = base + writer.acknowledged;
      const lastWrittenAt = writer.lastAckAt;
      const held = await heldByAll(evaluators, last, 20_000);
      const heldAt = Date.now();
      t.log(
        `round ${round}: killed ${victim}${victim === meta ? ' (meta leader)' : ''}${victim === streamLeader ? ' (bucket leader)' : ''}; the first write acknowledged after the kill reached both evaluators ${firstMs} ms after the kill; ` +
          `the last revision (${last}, ${lastWrittenAt - killedAt} ms after the kill) ${held === undefined ? 'did not arrive within 20 s' : `was held by both ${heldAt - lastWrittenAt} ms after it was acknowledged, ${heldAt - killedAt} ms after the kill`}`,
      );
      t.truthy(held !== undefined && heldAt - killedAt <= 5000, `round ${round}: every evaluator holds the last acknowledged revision within 5 s of the kill`);
      t.truthy(held !== undefined && heldAt - lastWrittenAt <= 5000, `round ${round}: every evaluator holds the last revision within 5 s of its write`);
      await cluster.restart(victim);
      await cluster.waitCaughtUp([`KV_${bucket.bucket}`, `OBJ_${bucket.objectStore}`]);
      previous = victim;
      writer.resume();
    }
  } finally {
    await writer.stop();
    await load.stop();
  }

  t.deepEqual(writer.refused, [], 'every write was acknowledged');
  t.deepEqual(load.failures.slice(0, 5), [], `no evaluation failed (${load.failures.length} of ${load.answered + load.failures.length})`);
  t.log(`${writer.acknowledged} writes acknowledged, ${load.answered} evaluations answered`);
  const final = base + writer.acknowledged;
  t.is(await serverRevision(api), final, 'the control plane holds every acknowledged write');
  t.truthy(await heldByAll(evaluators, final, 10_000), 'every evaluator holds the last acknowledged write');
  // The bucket caught up too: an evaluator started now reads it, and nothing live.
  const late = await startEnsign({ command: 'evaluator', env: env(cluster.urls()) });
  processes.push(late);
  t.truthy(await heldByAll([jsonClient(late.baseUrl)], final, 15_000), 'the bucket holds the last acknowledged write');
  for (const evaluator of evaluators) {
    const res = await evaluator.post('/evaluate/v1/boolean', { namespaceKey: NS, flagKey: FLAG, entityId: 'last', context: {} });
    t.is(res.body?.enabled, writer.lastEnabled, `${evaluator.baseUrl} answers as the last write left the flag`);
  }
});
