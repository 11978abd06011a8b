/** The HTTP benchmark's console output: one table of every target against bare, the batch and the memory lines. */
import type { LargeNamespaceFigures } from './large-namespace-memory.js';
import type { TargetFigures } from './measure-target.js';

export interface HttpSetting {
  generator: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  placement: string;
}

const count = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** What a target answered per second against the bare ceiling, and its p99 as a multiple of bare's. */
export function againstBare(target: TargetFigures, bare: TargetFigures) {
  return {
    requestsRatio: target.requestsPerSecond / bare.requestsPerSecond,
    p99Ratio: target.latencyP99Ms / bare.latencyP99Ms,
    perCoreRatio: target.requestsPerServerCore === undefined || bare.requestsPerServerCore === undefined ? undefined : target.requestsPerServerCore / bare.requestsPerServerCore,
  };
}

export function printTargets(targets: TargetFigures[], bare: TargetFigures, setting: HttpSetting): void {
  const warmup = setting.warmupSeconds > 0 ? `${setting.warmupSeconds} s warm-up + ` : '';
  console.log(`\n${warmup}${setting.seconds} s per target, ${setting.connections} connections, load from ${setting.generator} in its own process (${setting.placement})\n`);
  const head = ['req/s', 'p50 ms', 'p99 ms', 'vs bare', 'p99 ×bare', 'req/core-s', 'per core', 'peak RSS MB', 'err/non2xx'];
  const widths = [9, 8, 8, 9, 10, 12, 10, 12, 12];
  const line = (label: string, cells: string[]) => console.log(`${label.padEnd(44)}${cells.map((c, i) => c.padStart(widths[i]!)).join('')}`);
  line('target', head);
  for (const t of targets) {
    const r = againstBare(t, bare);
    line(t.target, [
      count(t.requestsPerSecond),
      t.latencyP50Ms.toFixed(2),
      t.latencyP99Ms.toFixed(2),
      percent(r.requestsRatio),
      `${r.p99Ratio.toFixed(2)}×`,
      count(t.requestsPerServerCore),
      r.perCoreRatio === undefined ? '–' : percent(r.perCoreRatio),
      t.peakRssMb === undefined ? '–' : t.peakRssMb.toFixed(1),
      `${t.errors}/${t.non2xx}`,
    ]);
  }
  console.log('(req/core-s: requests per CPU-second of the server under test; per core: that against bare\'s)');
}

/** Batch figures: requests and the evaluations they carried, against bare's requests. */
export function batchFigures(batch: TargetFigures, bare: TargetFigures) {
  const evaluationsPerSecond = batch.requestsPerSecond * batch.evaluationsPerRequest;
  return { requestsPerSecond: batch.requestsPerSecond, evaluationsPerSecond, evaluationsToBareRequests: Math.round((evaluationsPerSecond / bare.requestsPerSecond) * 1000) / 1000 };
}

export function printBatch(batch: TargetFigures, bare: TargetFigures): void {
  const f = batchFigures(batch, bare);
  console.log(
    `\nbatch of ${batch.evaluationsPerRequest}: ${count(f.requestsPerSecond)} req/s = ${count(f.evaluationsPerSecond)} evaluations/s, ${f.evaluationsToBareRequests.toFixed(2)}× bare's req/s`,
  );
}

export function printLargeNamespace(f: LargeNamespaceFigures): void {
  const load = f.load;
  console.log(`\nensign evaluator holding ${count(f.flags)} flags (seeded in ${f.seedSeconds} s, ${count(f.seedCalls)} calls; held ${f.hydrateSeconds} s after the server started):`);
  console.log(`  peak RSS ${f.peakRssHydratedMb ?? '–'} MB once hydrated, ${load.peakRssMb ?? '–'} MB after ${load.durationSeconds.toFixed(0)} s of variant evaluations over its ${count(f.variantFlags)} variant flags`);
  console.log(`  (${count(load.requestsPerSecond)} req/s, ${load.errors}/${load.non2xx} err/non2xx; RSS now ${f.rssAfterLoadMb ?? '–'} MB)`);
  console.log(`  aim: peak RSS < ${f.aimMb} MB: ${f.withinAim ? 'within' : 'NOT within'}`);
}
