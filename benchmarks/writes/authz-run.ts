/**
 * What authorization adds to a write (`BENCH_WRITES_AUTHZ`): the same one-flag writes against two
 * servers side by side, both requiring the same admin token, one with authorization on (Flipt's
 * example roles, decided natively) and one without, in interleaved rounds so both see the same
 * machine; the median write latency of each and their ratio.
 */
import { summarize, type Summary } from '../propagation/percentiles.js';
import { cpuSeconds, type CpuShares, measureCpuShares } from '../propagation/process-cpu.js';
import { type AuthzArm, startAuthzArm, viewerUpdateStatus } from './authz-arm.js';
import type { BenchDb, WriteOptions } from './options.js';
import { RunScope } from './run-scope.js';
import { type WriteSample, writeOneAtATime } from './write-phase.js';

const NS = 'writes';
/** The limit: authorization adds under 5 % to the median write. */
export const AUTHZ_RATIO_LIMIT = 1.05;

export interface AuthzArmFigures {
  authorization: boolean;
  writes: number;
  refused: number;
  lost: number;
  mismatches: number;
  latency: Summary;
  /** Each round's median write, in round order. */
  roundMedians: number[];
  commitToVisible: Summary;
  serverCpuMsPerWrite: number | undefined;
  seedSeconds: number;
}

export interface AuthzFigures {
  db: BenchDb;
  flags: number;
  rounds: number;
  writesPerRound: number;
  /** A viewer's flag update on the server with authorization on: 403 expected. */
  viewerUpdateStatus: number | undefined;
  off: AuthzArmFigures;
  on: AuthzArmFigures;
  /** Median write with authorization over without. */
  ratio: number;
  /** The ratio of each round's medians: median, min and max over the rounds. */
  roundRatios: { p50: number; min: number; max: number };
  /** The machine's busy CPUs over the rounds: both arms' servers and evaluators with the benchmark, and other work. */
  cpuShares: CpuShares | undefined;
  problems: string[];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Median (nearest rank), min and max, to three decimals. */
function spread(values: number[]): { p50: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round3(sorted[Math.ceil(sorted.length / 2) - 1] ?? NaN), min: round3(sorted[0] ?? NaN), max: round3(sorted[sorted.length - 1] ?? NaN) };
}

interface ArmState {
  arm: AuthzArm;
  samples: WriteSample[];
  roundMedians: number[];
  cpuSeconds: number;
}

async function writeRound(state: ArmState, count: number): Promise<void> {
  const pid = state.arm.server.child.pid;
  const before = cpuSeconds(pid);
  const { samples, revision } = await writeOneAtATime({ server: state.arm.server, evaluator: state.arm.evaluator, ns: NS, writes: state.arm.writes, count, revision: state.arm.revision });
  const after = cpuSeconds(pid);
  state.arm.revision = revision;
  state.samples.push(...samples);
  state.roundMedians.push(summarize(samples.map((s) => s.latencyMs)).p50);
  if (before !== undefined && after !== undefined) state.cpuSeconds += after - before;
}

function figuresOf(state: ArmState): AuthzArmFigures {
  const { samples } = state;
  const accepted = samples.filter((s) => s.error === undefined);
  const visible = accepted.filter((s) => s.visibleMs !== undefined);
  return {
    authorization: state.arm.authorization,
    writes: samples.length,
    refused: samples.length - accepted.length,
    lost: accepted.length - visible.length,
    mismatches: samples.filter((s) => s.mismatch !== undefined).length,
    latency: summarize(samples.map((s) => s.latencyMs)),
    roundMedians: state.roundMedians,
    commitToVisible: summarize(visible.map((s) => s.visibleMs!)),
    serverCpuMsPerWrite: state.cpuSeconds === 0 ? undefined : Math.round(((state.cpuSeconds * 1000) / samples.length) * 100) / 100,
    seedSeconds: Math.round(state.arm.seedSeconds * 10) / 10,
  };
}

function problemsOf(state: ArmState, label: string): string[] {
  return state.samples
    .flatMap((s, i) => [
      ...(s.error === undefined ? [] : [`${label} write ${i} (${s.kind}) → ${s.status} ${s.error}`]),
      ...(s.error === undefined && s.visibleMs === undefined ? [`${label} write ${i} (${s.kind}) not visible on the evaluator within 5 s`] : []),
      ...(s.mismatch === undefined ? [] : [`${label} write ${i} (${s.kind}) answered differently: ${s.mismatch}`]),
    ])
    .slice(0, 10);
}

/** Both arms on `db`, warmed, then `rounds` rounds of `authzRoundWrites` writes each, the arm going first alternating. */
export async function runAuthz(db: BenchDb, options: WriteOptions): Promise<AuthzFigures> {
  const scope = new RunScope();
  try {
    const off = await startAuthzArm(scope, db, NS, options.authzSize, false);
    const on = await startAuthzArm(scope, db, NS, options.authzSize, true);
    const viewerStatus = await viewerUpdateStatus(on, NS);
    const states: ArmState[] = [off, on].map((arm) => ({ arm, samples: [], roundMedians: [], cpuSeconds: 0 }));
    for (const state of states) {
      const warm = await writeOneAtATime({ server: state.arm.server, evaluator: state.arm.evaluator, ns: NS, writes: state.arm.writes, count: options.warmupWrites, revision: state.arm.revision });
      state.arm.revision = warm.revision;
    }
    const endShares = measureCpuShares(states.flatMap((s) => [s.arm.server.child.pid, s.arm.evaluator.child.pid]));
    for (let round = 0; round < options.authzRounds; round++) {
      for (const state of round % 2 === 0 ? states : [...states].reverse()) await writeRound(state, options.authzRoundWrites);
    }
    const cpuShares = endShares();
    const [offState, onState] = states as [ArmState, ArmState];
    const offFigures = figuresOf(offState);
    const onFigures = figuresOf(onState);
    const ratio = round3(onFigures.latency.p50 / offFigures.latency.p50);
    const problems = [...problemsOf(offState, 'authorization off:'), ...problemsOf(onState, 'authorization on:')];
    if (viewerStatus !== 403) problems.push(`a viewer's flag update was answered ${viewerStatus}, not 403: authorization is not deciding`);
    if (ratio > AUTHZ_RATIO_LIMIT) problems.push(`authorization adds ${Math.round((ratio - 1) * 1000) / 10} % to the median write (limit ${Math.round((AUTHZ_RATIO_LIMIT - 1) * 100)} %)`);
    const roundRatios = onFigures.roundMedians.map((m, i) => m / offFigures.roundMedians[i]!);
    return {
      db,
      flags: options.authzSize,
      rounds: options.authzRounds,
      writesPerRound: options.authzRoundWrites,
      viewerUpdateStatus: viewerStatus,
      off: offFigures,
      on: onFigures,
      ratio,
      roundRatios: spread(roundRatios),
      cpuShares,
      problems,
    };
  } finally {
    await scope.close();
  }
}

/** The phase's table: one row per arm and database, then the ratio. */
export function printAuthz(runs: AuthzFigures[]): void {
  if (runs.length === 0) return;
  const r0 = runs[0]!;
  console.log(
    `\nauthorization on (admin token, Flipt's example roles) vs off (the same token, authentication only): ${r0.rounds} interleaved rounds of ${r0.writesPerRound} writes per arm, ${r0.flags.toLocaleString('en-US')} flags (ms)\n`,
  );
  const head = ['db', 'authorization', 'writes', 'write p50', 'p90', 'p99', 'server CPU ms/write', 'visible p50', 'refused/lost/mismatched'];
  const rows = runs.flatMap((r) =>
    [r.off, r.on].map((a) => [
      r.db,
      a.authorization ? 'on' : 'off',
      String(a.writes),
      a.latency.p50.toFixed(2),
      a.latency.p90.toFixed(2),
      a.latency.p99.toFixed(2),
      a.serverCpuMsPerWrite === undefined ? '–' : a.serverCpuMsPerWrite.toFixed(2),
      a.commitToVisible.p50.toFixed(2),
      `${a.refused}/${a.lost}/${a.mismatches}`,
    ]),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  for (const r of runs) {
    const verdict = r.ratio <= AUTHZ_RATIO_LIMIT ? 'within' : 'NOT within';
    console.log(
      `\nheadline, ${r.db}: median write with authorization / without = ${r.ratio.toFixed(3)} (${verdict} the ${Math.round((AUTHZ_RATIO_LIMIT - 1) * 100)} % limit); ` +
        `per round ${r.roundRatios.p50.toFixed(3)} median, ${r.roundRatios.min.toFixed(3)}–${r.roundRatios.max.toFixed(3)}; a viewer's update → ${r.viewerUpdateStatus}`,
    );
    const s = r.cpuShares;
    if (s !== undefined) console.log(`  CPUs busy while writing: ${s.machine} (both arms and the benchmark ${s.benchmark}; other work, PostgreSQL and nats-server included, ${s.other})`);
  }
}
