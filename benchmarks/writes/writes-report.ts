/** The write benchmark's console output: one row per (database, size), the headline ratio, the import. */
import type { ImportFigures } from './import-run.js';
import type { BenchDb } from './options.js';
import type { WriteRunFigures } from './write-run.js';

const num = (v: number | undefined, digits = 2) => (v === undefined || Number.isNaN(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const int = (v: number | undefined) => (v === undefined ? '–' : Math.round(v).toLocaleString('en-US'));

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function printWrites(runs: WriteRunFigures[], writes: number): void {
  console.log(`\n${writes} one-flag writes per run, one at a time (ms; CPU and bytes per write over the measured writes)\n`);
  table(
    ['db', 'flags', 'write p50', 'write p99', 'CPU ms/write', 'NATS delta B/write', 'NATS total B/write', 'hydrations', 'visible p50', 'visible p99', 'refused/lost/mismatched'],
    runs.map((r) => [
      r.db,
      int(r.flags),
      num(r.latency.p50),
      num(r.latency.p99),
      num(r.cpuMsPerWrite.server),
      int(r.nats.deltaBytesPerWrite),
      int(r.nats.totalBytesPerWrite),
      String(r.nats.hydrations),
      num(r.commitToVisible.p50),
      num(r.commitToVisible.p99),
      `${r.refused}/${r.lost}/${r.mismatches}`,
    ]),
  );
  console.log('\nseeding (in-process, before the server starts) and start-up:');
  for (const r of runs) {
    const kinds = Object.entries(r.latencyP50ByKind).map(([kind, k]) => `${kind} ${k!.p50} (${k!.count})`).join(', ');
    console.log(`  ${r.db} ${int(r.flags)} flags: ${int(r.seed.calls)} calls in ${num(r.seed.seconds, 1)} s; server + evaluator ready in ${num(r.startSeconds, 1)} s; write p50 by kind: ${kinds}`);
    const s = r.cpuShares;
    if (s !== undefined) console.log(`    CPUs busy while writing: ${s.machine} (server, evaluator and benchmark ${s.benchmark}; other work, the database server and nats-server included, ${s.other}); evaluator CPU ${num(r.cpuMsPerWrite.evaluator)} ms/write`);
  }
}

/** Median write latency at the largest size over the smallest, per database: the headline. */
export function latencyRatios(runs: WriteRunFigures[]): Partial<Record<BenchDb, { from: number; to: number; ratio: number }>> {
  const out: Partial<Record<BenchDb, { from: number; to: number; ratio: number }>> = {};
  for (const db of new Set(runs.map((r) => r.db))) {
    const of = runs.filter((r) => r.db === db).sort((a, b) => a.flags - b.flags);
    const small = of[0];
    const large = of[of.length - 1];
    if (small === undefined || large === undefined || small === large) continue;
    out[db] = { from: small.flags, to: large.flags, ratio: Math.round((large.latency.p50 / small.latency.p50) * 100) / 100 };
  }
  return out;
}

export function printHeadline(ratios: ReturnType<typeof latencyRatios>): void {
  for (const [db, r] of Object.entries(ratios)) {
    console.log(`\nheadline, ${db}: median write latency at ${int(r!.to)} flags / at ${int(r!.from)} flags = ${num(r!.ratio)}`);
  }
}

export function printImports(imports: ImportFigures[]): void {
  if (imports.length === 0) return;
  console.log('\nimport of Flipt\'s integration-test shape through /api/v1, one call at a time\n');
  table(
    ['db', 'calls', 'total s', 'mean ms/call', 'p50', 'p99', 'server CPU ms/call', 'NATS MB', 'evaluator caught up (ms after)'],
    imports.map((i) => [
      i.db,
      int(i.calls),
      num(i.totalSeconds, 1),
      num(i.meanMsPerCall),
      num(i.perCall.p50),
      num(i.perCall.p99),
      num(i.serverCpuMsPerCall),
      num((i.nats.deltaBytes + i.nats.hydrationBytes) / 1e6, 1),
      int(i.visibleAfterMs),
    ]),
  );
}

export function printProblems(problems: string[]): void {
  if (problems.length === 0) return;
  console.log('\nproblems seen in the system under test:');
  for (const p of problems) console.log(`  - ${p}`);
}
