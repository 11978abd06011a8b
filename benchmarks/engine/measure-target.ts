/**
 * One target's figures: rounds of a warm-up then a measured load, with the CPU time the process
 * under test spent during each measured load and the most memory it ever held. Targets are
 * measured in rounds, every target once per round, so that each round's ratios compare loads run
 * minutes apart at most: on a shared VM the whole machine's speed drifts between runs far more
 * than one target differs from the next.
 */
import { cpuSeconds } from '../propagation/process-cpu.js';
import type { LoadResult } from './load-generator.js';
import { peakRssMb } from './process-memory.js';

/** One measured load of a target. */
export interface RoundFigures extends LoadResult {
  requestsPerSecond: number;
  /** CPU seconds of the process under test over the measured load (not the warm-up), from /proc. */
  serverCpuSeconds: number | undefined;
}

export interface TargetFigures extends LoadResult {
  target: string;
  /** Every request over every round's measured time. */
  requestsPerSecond: number;
  /** Evaluations one request asks for (50 for the batch). */
  evaluationsPerRequest: number;
  /** CPU seconds of the process under test over all measured loads, from /proc. */
  serverCpuSeconds: number | undefined;
  /** Requests per CPU-second of the process under test: what one full core would answer, whatever the generator managed. */
  requestsPerServerCore: number | undefined;
  /** VmHWM of the process under test read after its last round, in MB: start-up, seeding and load included. */
  peakRssMb: number | undefined;
  /** Each round's figures, in order; latencies above are the median of the rounds'. */
  rounds: RoundFigures[];
}

export interface TargetRun {
  target: string;
  pid: number | undefined;
  evaluationsPerRequest: number;
  /** Runs the load for `seconds`. */
  load(seconds: number): Promise<LoadResult>;
}

/** A warm-up of `warmupSeconds`, then `seconds` measured. */
export async function measureRound(run: TargetRun, seconds: number, warmupSeconds: number): Promise<RoundFigures> {
  console.log(`${run.target}: ${warmupSeconds > 0 ? `${warmupSeconds} s warm-up, then ` : ''}${seconds} s measured`);
  if (warmupSeconds > 0) await run.load(warmupSeconds);
  const before = cpuSeconds(run.pid);
  const result = await run.load(seconds);
  const after = cpuSeconds(run.pid);
  return {
    ...result,
    requestsPerSecond: Math.round(result.requests / result.durationSeconds),
    serverCpuSeconds: before === undefined || after === undefined ? undefined : Math.round((after - before) * 100) / 100,
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A target's figures over its rounds: totals for counts and rates, medians for latencies. */
export function combineRounds(run: TargetRun, rounds: RoundFigures[]): TargetFigures {
  const sum = (pick: (r: RoundFigures) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const requests = sum((r) => r.requests);
  const durationSeconds = sum((r) => r.durationSeconds);
  const cpu = rounds.some((r) => r.serverCpuSeconds === undefined) ? undefined : Math.round(sum((r) => r.serverCpuSeconds!) * 100) / 100;
  return {
    target: run.target,
    requests,
    durationSeconds,
    latencyP50Ms: median(rounds.map((r) => r.latencyP50Ms)),
    latencyP99Ms: median(rounds.map((r) => r.latencyP99Ms)),
    latencyAvgMs: sum((r) => r.latencyAvgMs * r.requests) / Math.max(1, requests),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    requestsPerSecond: Math.round(requests / durationSeconds),
    evaluationsPerRequest: run.evaluationsPerRequest,
    serverCpuSeconds: cpu,
    requestsPerServerCore: cpu === undefined || cpu <= 0 ? undefined : Math.round(requests / cpu),
    peakRssMb: peakRssMb(run.pid),
    rounds,
  };
}

/** One target measured once: a single round. */
export async function measureTarget(run: TargetRun, seconds: number, warmupSeconds: number): Promise<TargetFigures> {
  return combineRounds(run, [await measureRound(run, seconds, warmupSeconds)]);
}
