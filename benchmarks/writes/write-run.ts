/**
 * One (database, namespace size) run: seed the namespace in-process, start the server and an
 * evaluator on it, wait until the evaluator holds it, then time the writes and cost them in server
 * CPU and NATS bytes over exactly the measured window.
 */
import { performance } from 'node:perf_hooks';
import { openStore } from '@ensign/store';
import { summarize, type Summary } from '../propagation/percentiles.js';
import { cpuSeconds, type CpuShares, measureCpuShares } from '../propagation/process-cpu.js';
import { createBenchDatabase } from './bench-database.js';
import { startBenchCluster } from './bench-cluster.js';
import { untilRevision } from './held-revision.js';
import { inProcessApi } from './in-process-api.js';
import { seedNamespaceMix } from './namespace-mix.js';
import { OneFlagWrites, type WriteKind } from './one-flag-writes.js';
import type { BenchDb } from './options.js';
import { publishedBetween, readPublishTotals, type PublishTotals } from './publish-metrics.js';
import { RunScope } from './run-scope.js';
import { type WriteSample, writeOneAtATime } from './write-phase.js';

const NS = 'writes';

export interface WriteRunFigures {
  db: BenchDb;
  flags: number;
  seed: { calls: number; seconds: number; revision: number };
  /** Spawn of the server → the evaluator holding the namespace. */
  startSeconds: number;
  writes: number;
  refused: number;
  lost: number;
  mismatches: number;
  latency: Summary;
  latencyP50ByKind: Partial<Record<WriteKind, { count: number; p50: number }>>;
  commitToVisible: Summary;
  cpuMsPerWrite: { server: number | undefined; evaluator: number | undefined };
  nats: PublishTotals & { deltaBytesPerWrite: number; totalBytesPerWrite: number };
  cpuShares: CpuShares | undefined;
  /** The first refused writes, lost writes and mismatches, as text. */
  problems: string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** CPU ms per write of a process over the window, undefined without /proc. */
const perWrite = (before: number | undefined, after: number | undefined, writes: number) =>
  before === undefined || after === undefined ? undefined : round2(((after - before) * 1000) / writes);

function byKind(samples: WriteSample[]): WriteRunFigures['latencyP50ByKind'] {
  const out: WriteRunFigures['latencyP50ByKind'] = {};
  for (const kind of new Set(samples.map((s) => s.kind))) {
    const of = samples.filter((s) => s.kind === kind);
    out[kind] = { count: of.length, p50: summarize(of.map((s) => s.latencyMs)).p50 };
  }
  return out;
}

function problemsOf(samples: WriteSample[]): string[] {
  const problems = samples.flatMap((s, i) => [
    ...(s.error === undefined ? [] : [`write ${i} (${s.kind}) → ${s.status} ${s.error}`]),
    ...(s.error === undefined && s.visibleMs === undefined ? [`write ${i} (${s.kind}) not visible on the evaluator within 5 s`] : []),
    ...(s.mismatch === undefined ? [] : [`write ${i} (${s.kind}) answered differently: ${s.mismatch}`]),
  ]);
  return problems.slice(0, 10);
}

export async function runWrites(db: BenchDb, size: number, count: number, warmup: number): Promise<WriteRunFigures> {
  const scope = new RunScope();
  try {
    const database = await createBenchDatabase(db);
    scope.add(() => database.drop());

    const seedStart = performance.now();
    const { seeded, seededRevision } = await database.seeding(async () => {
      const store = await openStore({ url: database.url });
      try {
        await store.migrate();
        const made = await seedNamespaceMix(inProcessApi(store), NS, size);
        return { seeded: made, seededRevision: await store.revision(NS) };
      } finally {
        await store.close();
      }
    });
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const startAt = performance.now();
    const { server, evaluator } = await startBenchCluster(scope, database.url);
    if ((await untilRevision(evaluator.client, NS, seededRevision, 60_000, 20)) === undefined) {
      throw new Error(`${db}/${size}: the evaluator did not hold namespace ${NS} at revision ${seededRevision} within 60 s`);
    }
    const startSeconds = (performance.now() - startAt) / 1000;

    const writes = new OneFlagWrites(seeded);
    const warm = await writeOneAtATime({ server, evaluator, ns: NS, writes, count: warmup, revision: seededRevision });

    const published = await readPublishTotals(server.client);
    const pids = { server: server.child.pid, evaluator: evaluator.child.pid };
    const cpuBefore = { server: cpuSeconds(pids.server), evaluator: cpuSeconds(pids.evaluator) };
    const endShares = measureCpuShares([pids.server, pids.evaluator]);
    const { samples } = await writeOneAtATime({ server, evaluator, ns: NS, writes, count, revision: warm.revision });
    const cpuShares = endShares();
    const cpuAfter = { server: cpuSeconds(pids.server), evaluator: cpuSeconds(pids.evaluator) };
    const nats = publishedBetween(published, await readPublishTotals(server.client));

    const accepted = samples.filter((s) => s.error === undefined);
    const visible = accepted.filter((s) => s.visibleMs !== undefined);
    return {
      db,
      flags: size,
      seed: { calls: seeded.calls, seconds: round2(seedSeconds), revision: seededRevision },
      startSeconds: round2(startSeconds),
      writes: samples.length,
      refused: samples.length - accepted.length,
      lost: accepted.length - visible.length,
      mismatches: samples.filter((s) => s.mismatch !== undefined).length,
      latency: summarize(samples.map((s) => s.latencyMs)),
      latencyP50ByKind: byKind(samples),
      commitToVisible: summarize(visible.map((s) => s.visibleMs!)),
      cpuMsPerWrite: { server: perWrite(cpuBefore.server, cpuAfter.server, count), evaluator: perWrite(cpuBefore.evaluator, cpuAfter.evaluator, count) },
      nats: { ...nats, deltaBytesPerWrite: Math.round(nats.deltaBytes / count), totalBytesPerWrite: Math.round((nats.deltaBytes + nats.hydrationBytes) / count) },
      cpuShares,
      problems: problemsOf(samples),
    };
  } finally {
    await scope.close();
  }
}
