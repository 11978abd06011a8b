/**
 * One target's figures: a warm-up run of the load, then the measured run, with the CPU time the
 * process under test spent during the measured run and the most memory it ever held.
 */
import { cpuSeconds } from '../propagation/process-cpu.js';
import type { LoadResult } from './load-generator.js';
import { peakRssMb } from './process-memory.js';

export interface TargetFigures extends LoadResult {
  target: string;
  requestsPerSecond: number;
  /** Evaluations one request asks for (50 for the batch). */
  evaluationsPerRequest: number;
  /** CPU seconds of the process under test over the measured run (not the warm-up), from /proc. */
  serverCpuSeconds: number | undefined;
  /** Requests per CPU-second of the process under test: what one full core would answer, whatever the generator managed. */
  requestsPerServerCore: number | undefined;
  /** VmHWM of the process under test read after its run, in MB: start-up, seeding and load included. */
  peakRssMb: number | undefined;
}

export interface TargetRun {
  target: string;
  pid: number | undefined;
  evaluationsPerRequest: number;
  /** Runs the load for `seconds`. */
  load(seconds: number): Promise<LoadResult>;
}

export async function measureTarget(run: TargetRun, seconds: number, warmupSeconds: number): Promise<TargetFigures> {
  console.log(`${run.target}: ${warmupSeconds > 0 ? `${warmupSeconds} s warm-up, then ` : ''}${seconds} s measured`);
  if (warmupSeconds > 0) await run.load(warmupSeconds);
  const before = cpuSeconds(run.pid);
  const result = await run.load(seconds);
  const after = cpuSeconds(run.pid);
  const serverCpuSeconds = before === undefined || after === undefined ? undefined : Math.round((after - before) * 100) / 100;
  return {
    target: run.target,
    ...result,
    requestsPerSecond: Math.round(result.requests / result.durationSeconds),
    evaluationsPerRequest: run.evaluationsPerRequest,
    serverCpuSeconds,
    requestsPerServerCore: serverCpuSeconds === undefined || serverCpuSeconds <= 0 ? undefined : Math.round(result.requests / serverCpuSeconds),
    peakRssMb: peakRssMb(run.pid),
  };
}
