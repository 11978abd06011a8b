/**
 * Write-committed → visible on every evaluator, and what receiving updates costs an evaluator.
 * Starts one `ensign server` (SQLite in a temp dir, or `--db postgres`) publishing to NATS and two
 * `ensign evaluator` processes on its own bucket, seeds a namespace, then
 *   1. writes one at a time and times when each write shows in the evaluation answers of every
 *      evaluator, from the write's acknowledgement and from its request;
 *   2. loads evaluator 1 with autocannon, without and with a steady stream of writes.
 * Run: `npm run bench:propagation [-- --help]`; writes benchmarks/results/propagation.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testBucket } from '@ensign/testkit';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, onCleanup, runToExit } from './children.js';
import { type Cluster, type EnsignNode, startCluster } from './ensign-cluster.js';
import { type LoadFigures, loadFigures, propagationFigures } from './figures.js';
import { type LoadRun, measureUnderLoad } from './load-phase.js';
import { type Options, parseOptions } from './options.js';
import { summarize, type Summary } from './percentiles.js';
import { type CpuShares, measureCpuShares } from './process-cpu.js';
import { type WriteTimeline, writeOneByOne } from './quiet-phase.js';
import { placeProcesses } from './placement.js';
import { printCpuShares, printLoad, printPropagation } from './report.js';
import { seedNamespace } from './seed-namespace.js';
import { Watcher } from './watcher.js';

/** The aim for p99 of commit → visible on every evaluator. */
const AIM_P99_MS = 50;
const EVALUATORS = 2;

const options = parseOptions(process.argv.slice(2));
const clearTimeoutGuard = installSafetyNets(options.timeoutSeconds);
const loadAverageBefore = os.loadavg();

/** Round trips of the polls that revealed the writes of `timelines`: the granularity of their figures. */
function revealingRoundTrips(watcher: Watcher, timelines: WriteTimeline[]): Summary {
  return summarize(timelines.flatMap((t) => watcher.revealingRoundTrip.get(t.seq) ?? []));
}

/** The load phase: evaluator 1 under autocannon, without and with writes. */
async function loadPhase(
  cluster: Cluster,
  variantId: string,
  firstSeq: number,
  opts: Options,
): Promise<{ figures: LoadFigures; runs: LoadRun[]; placement: string; pollRoundTrip: Summary }> {
  const [ev1, ev2] = cluster.evaluators as [EnsignNode, EnsignNode];
  const placement = placeProcesses(opts.pin, { loaded: ev1.child.pid, server: cluster.server.child.pid, other: ev2.child.pid });
  const watcher = new Watcher('evaluator 1 under load', ev1.client);
  const { runs, timelines } = await measureUnderLoad({
    api: cluster.server.client,
    variantId,
    evaluatorPid: ev1.child.pid,
    otherPids: { server: cluster.server.child.pid, 'evaluator 2': ev2.child.pid },
    evaluatorPort: ev1.port,
    watcher,
    firstSeq,
    seconds: opts.loadSeconds,
    rounds: opts.loadRounds,
    connections: opts.connections,
    writeRate: opts.loadWriteRate,
    clientCpu: placement.clientCpu,
  });
  const figures = loadFigures(runs, timelines);
  const pollRoundTrip = revealingRoundTrips(watcher, timelines);
  printLoad(figures, { connections: opts.connections, rounds: opts.loadRounds, seconds: opts.loadSeconds, placement: placement.description, pollP50Ms: pollRoundTrip.p50 });
  if (watcher.regressions > 0) throw new Error('evaluator 1 answered with an older write after a newer one');
  return { figures, runs, placement: placement.description, pollRoundTrip };
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(os.tmpdir(), 'ensign-propagation-'));
  onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  const db = await createTestDatabase(options.db);
  onCleanup(() => db.drop());
  const streams = testBucket('ensign_bench');
  onCleanup(() => streams.drop());

  const cluster = await startCluster({ dbUrl: db.url, streams, cwd: dir, evaluators: EVALUATORS });
  const api = cluster.server.client;
  const variantId = await seedNamespace(api, options.fillerFlags);
  const watchers = cluster.evaluators.map((e) => new Watcher(e.name, e.client, options.pollGapMs));
  for (const w of watchers) {
    if (!(await w.settle(0, 10_000))) throw new Error(`${w.name} never showed the seeded namespace`);
  }
  console.log(`ensign server (${options.db}) → NATS KV bucket ${streams.bucket} → ${EVALUATORS} evaluators; namespace of ${options.fillerFlags + 2} flags`);

  let seq = 1;
  await writeOneByOne({ api, variantId, watchers, firstSeq: seq, count: options.warmupWrites, spacingMs: options.spacingMs });
  seq += options.warmupWrites;
  const pids = [cluster.server, ...cluster.evaluators].map((n) => n.child.pid);
  const endWriteWindow = measureCpuShares(pids);
  const timelines = await writeOneByOne({ api, variantId, watchers, firstSeq: seq, count: options.writes, spacingMs: options.spacingMs });
  const cpuShares: Record<string, CpuShares | undefined> = { 'write phase': endWriteWindow() };
  seq += options.writes;
  const propagation = propagationFigures(timelines, EVALUATORS);
  const polls = watchers.map((w) => revealingRoundTrips(w, timelines));
  printPropagation(propagation, polls, options.spacingMs, options.pollGapMs, AIM_P99_MS);
  if (watchers.some((w) => w.regressions > 0)) throw new Error('an evaluator answered with an older write after a newer one');

  let load: Awaited<ReturnType<typeof loadPhase>> | undefined;
  if (options.loadSeconds > 0) {
    const endLoadWindow = measureCpuShares(pids);
    load = await loadPhase(cluster, variantId, seq, options);
    cpuShares['load phase'] = endLoadWindow();
  }
  printCpuShares(cpuShares);

  const path = writeResults('propagation.json', {
    ...machineOf(loadAverageBefore),
    cpuShares,
    options,
    evaluators: EVALUATORS,
    aimP99Ms: AIM_P99_MS,
    propagation,
    pollRoundTrip: polls,
    ...(load === undefined ? {} : { load: { placement: load.placement, ...load.figures, pollRoundTrip: load.pollRoundTrip, runs: load.runs } }),
  });
  console.log(`written ${path}`);

  const loadFailed = load !== undefined && (load.figures.visibleUnderLoad.lost > 0 || [load.figures.baseline, load.figures.withWrites].some((t) => t.errors + t.non2xx > 0));
  if (loadFailed) console.error('under load, evaluator 1 answered errors or non-2xx statuses, or lost writes; those figures are not valid');
  return propagation.lost > 0 || loadFailed ? 1 : 0;
}

await runToExit('propagation benchmark', main, clearTimeoutGuard);
