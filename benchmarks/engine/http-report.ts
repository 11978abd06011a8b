/** The HTTP benchmark's console output: one table of every target against bare, the batch and the memory lines. */
import type { LargeNamespaceFigures } from './large-namespace-memory.js';
import { median, type RoundFigures, type TargetFigures } from './measure-target.js';

export interface HttpSetting {
  generator: string;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  placement: string;
}

const count = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** Per-core rate of one round: requests per CPU-second of the process under test. */
const perCore = (r: RoundFigures): number | undefined => (r.serverCpuSeconds === undefined || r.serverCpuSeconds <= 0 ? undefined : r.requests / r.serverCpuSeconds);

/**
 * A target against a reference measured in the same rounds: the median over the rounds of each
 * round's ratio (requests per second, p99, requests per core), and the range of the request ratio.
 */
export function ratiosTo(target: TargetFigures, reference: TargetFigures) {
  const rounds = Math.min(target.rounds.length, reference.rounds.length);
  const requests: number[] = [];
  const p99: number[] = [];
  const core: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = target.rounds[i]!;
    const b = reference.rounds[i]!;
    requests.push(t.requestsPerSecond / b.requestsPerSecond);
    p99.push(t.latencyP99Ms / b.latencyP99Ms);
    const tc = perCore(t);
    const bc = perCore(b);
    if (tc !== undefined && bc !== undefined) core.push(tc / bc);
  }
  return {
    requestsRatio: median(requests),
    requestsRange: [Math.min(...requests), Math.max(...requests)] as const,
    p99Ratio: median(p99),
    perCoreRatio: core.length === rounds ? median(core) : undefined,
  };
}

/** The bare server that does what an ensign HTTP target must do at the least (its JSON), per target. */
export type Floors = ReadonlyMap<TargetFigures, TargetFigures>;

/** A target's ratios to bare and, for an ensign HTTP target, to its floor (named). */
export function targetRatios(target: TargetFigures, bare: TargetFigures, floors: Floors) {
  const floor = floors.get(target);
  return { toBare: ratiosTo(target, bare), floor: floor?.target, toFloor: floor === undefined ? undefined : ratiosTo(target, floor) };
}

export function printTargets(targets: TargetFigures[], bare: TargetFigures, floors: Floors, setting: HttpSetting): void {
  const warmup = setting.warmupSeconds > 0 ? `${setting.warmupSeconds} s warm-up + ` : '';
  console.log(
    `\n${setting.rounds} rounds of ${warmup}${setting.seconds} s per target, ${setting.connections} connections, load from ${setting.generator} in its own process (${setting.placement})\n`,
  );
  const head = ['req/s', 'p50 ms', 'p99 ms', 'vs bare', 'range', 'p99 ×bare', 'vs floor', 'p99 ×floor', 'req/core-s', 'per core', 'peak RSS MB', 'err/non2xx'];
  const widths = [9, 8, 8, 9, 10, 10, 10, 11, 12, 10, 12, 12];
  const line = (label: string, cells: string[]) => console.log(`${label.padEnd(44)}${cells.map((c, i) => c.padStart(widths[i]!)).join('')}`);
  line('target', head);
  for (const t of targets) {
    const { toBare: r, toFloor: f } = targetRatios(t, bare, floors);
    line(t.target, [
      count(t.requestsPerSecond),
      t.latencyP50Ms.toFixed(2),
      t.latencyP99Ms.toFixed(2),
      percent(r.requestsRatio),
      `${(r.requestsRange[0] * 100).toFixed(0)}–${(r.requestsRange[1] * 100).toFixed(0)}%`,
      `${r.p99Ratio.toFixed(2)}×`,
      f === undefined ? '–' : percent(f.requestsRatio),
      f === undefined ? '–' : `${f.p99Ratio.toFixed(2)}×`,
      count(t.requestsPerServerCore),
      r.perCoreRatio === undefined ? '–' : percent(r.perCoreRatio),
      t.peakRssMb === undefined ? '–' : t.peakRssMb.toFixed(1),
      `${t.errors}/${t.non2xx}`,
    ]);
  }
  console.log('(ratios: the median of the rounds\' ratios, each round against the reference\'s load of the same round; range: the rounds\' lowest and highest;');
  console.log(' p50/p99: the median of the rounds\'; floor: the bare server that parses the same bodies and stringifies answers of the same shape, and does nothing else;');
  console.log(' req/core-s: requests per CPU-second of the server under test; per core: that against bare\'s)');
}

/** Batch figures: requests and the evaluations they carried, against bare's requests (the median of the rounds'). */
export function batchFigures(batch: TargetFigures, bare: TargetFigures) {
  const evaluationsPerSecond = batch.requestsPerSecond * batch.evaluationsPerRequest;
  const toBare = ratiosTo(batch, bare).requestsRatio * batch.evaluationsPerRequest;
  return { requestsPerSecond: batch.requestsPerSecond, evaluationsPerSecond, evaluationsToBareRequests: Math.round(toBare * 1000) / 1000 };
}

export function printBatch(batch: TargetFigures, floor: TargetFigures, bare: TargetFigures): void {
  const line = (name: string, f: ReturnType<typeof batchFigures>) =>
    console.log(`${name}: ${count(f.requestsPerSecond)} req/s = ${count(f.evaluationsPerSecond)} evaluations/s, ${f.evaluationsToBareRequests.toFixed(2)}× bare's req/s`);
  console.log('');
  line(batch.target, batchFigures(batch, bare));
  line('  its floor (parse, stringify)', batchFigures(floor, bare));
}

/** What counting for /metrics (evaluations and requests) costs: the evaluator with it against the same evaluator with `metrics.enabled: false`. */
export function printCounting(counted: TargetFigures, uncounted: TargetFigures): void {
  const r = ratiosTo(counted, uncounted);
  const core = r.perCoreRatio === undefined ? '' : `, ${percent(r.perCoreRatio)} per server core`;
  console.log(`\ncounting evaluations (for /metrics and analytics): with it the evaluator answers ${percent(r.requestsRatio)} of the req/s it answers with metrics and analytics off (rounds ${percent(r.requestsRange[0])}–${percent(r.requestsRange[1])})${core}; p99 ${r.p99Ratio.toFixed(2)}×`);
}

export function printLargeNamespace(f: LargeNamespaceFigures): void {
  const load = f.load;
  console.log(`\nensign evaluator holding ${count(f.flags)} flags (seeded in ${f.seedSeconds} s, ${count(f.seedCalls)} calls; held ${f.hydrateSeconds} s after the server started):`);
  console.log(`  peak RSS ${f.peakRssHydratedMb ?? '–'} MB once hydrated, ${load.peakRssMb ?? '–'} MB after ${load.durationSeconds.toFixed(0)} s of variant evaluations over its ${count(f.variantFlags)} variant flags`);
  console.log(`  (${count(load.requestsPerSecond)} req/s, ${load.errors}/${load.non2xx} err/non2xx; RSS now ${f.rssAfterLoadMb ?? '–'} MB)`);
  console.log(`  aim: peak RSS < ${f.aimMb} MB: ${f.withinAim ? 'within' : 'NOT within'}`);
}
