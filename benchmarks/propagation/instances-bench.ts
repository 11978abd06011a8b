/**
 * Servers sharing one database without NATS: how long a write made through server A takes to be
 * evaluated by server B (the revision poll's interval bounds it), against the same write read back
 * from A itself, which serves its own writes at once. Each round toggles one flag through A and
 * asks A and B, interleaved, every 2 ms until each answers the new state.
 * Run: `npm run bench:instances [-- --db postgres|mysql|sqlite] [--writes N] [--poll DURATION]`;
 * writes benchmarks/results/instances.json.
 */
import os from 'node:os';
import { createTestDatabase, type EnsignProcess, jsonClient, type JsonClient, startEnsign, type TestDialect } from '@ensign/testkit';
import { machineOf, writeResults } from '../engine/results-file.js';
import { summarize } from './percentiles.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? (args[at + 1] as string) : fallback;
};
const dialect = option('db', 'postgres') as TestDialect;
const writes = Number(option('writes', '60'));
const poll = option('poll', '1s');
/** A round that sees no change for this long fails the run instead of hanging. */
const ROUND_LIMIT_MS = 30_000;
const loadAverageBefore = os.loadavg();

async function enabledOf(api: JsonClient): Promise<boolean | undefined> {
  const res = await api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'watched', entityId: 'u1', context: {} });
  return res.status === 200 ? (res.body.enabled as boolean) : undefined;
}

/** Resolves how long after `since` each client first answered `enabled`, asking them in turn. */
async function visibleAfter(clients: JsonClient[], enabled: boolean, since: number): Promise<number[]> {
  const seen: Array<number | undefined> = clients.map(() => undefined);
  while (seen.some((s) => s === undefined)) {
    if (performance.now() - since > ROUND_LIMIT_MS) throw new Error(`a write was not visible everywhere within ${ROUND_LIMIT_MS} ms`);
    for (const [i, api] of clients.entries()) {
      if (seen[i] === undefined && (await enabledOf(api)) === enabled) seen[i] = performance.now() - since;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return seen as number[];
}

const database = await createTestDatabase(dialect);
const servers: EnsignProcess[] = [];
try {
  const env = { ENSIGN_DB_URL: database.url, ENSIGN_NATS_URL: undefined, ENSIGN_DB_POLL_INTERVAL: poll, ENSIGN_LOG_LEVEL: 'warn' };
  servers.push(await startEnsign({ env }));
  servers.push(await startEnsign({ env }));
  const [a, b] = servers.map((s) => jsonClient(s.baseUrl)) as [JsonClient, JsonClient];
  const created = await a.post('/api/v1/namespaces/default/flags', { key: 'watched', name: 'watched', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  if (created.status !== 200) throw new Error(`seeding failed: ${created.text}`);
  await visibleAfter([a, b], false, performance.now());
  const onA: number[] = [];
  const onB: number[] = [];
  for (let i = 0; i < writes; i++) {
    const enabled = i % 2 === 0;
    const started = performance.now();
    const res = await a.put('/api/v1/namespaces/default/flags/watched', { key: 'watched', name: 'watched', enabled });
    if (res.status !== 200) throw new Error(`write ${i} failed: ${res.text}`);
    const acknowledged = performance.now();
    const [fromA, fromB] = (await visibleAfter([a, b], enabled, acknowledged)) as [number, number];
    onA.push(fromA);
    onB.push(fromB);
    // Rounds start at random points of the poll's cycle (up to 1.5 s: longer than the default interval).
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
    if (performance.now() - started > ROUND_LIMIT_MS) throw new Error('round too slow');
  }
  const figures = { dialect, poll, writes, visibleOnWriterMs: summarize(onA), visibleOnOtherServerMs: summarize(onB) };
  console.log(`ack → visible, ${writes} writes through A, ${dialect}, db.poll_interval ${poll}`);
  console.log('  on A (the writer):     ', JSON.stringify(figures.visibleOnWriterMs));
  console.log('  on B (the other one):  ', JSON.stringify(figures.visibleOnOtherServerMs));
  console.log(`results: ${writeResults('instances.json', { machine: machineOf(loadAverageBefore), ...figures })}`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await database.drop();
}
