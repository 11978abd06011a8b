/**
 * The HTTP load generator: wrk where it is installed (C, one thread on its own CPU, so it outruns the
 * servers it loads), autocannon otherwise (Node, so on a small machine it can be the bottleneck).
 */
import { spawnSync } from 'node:child_process';
import { autocannonGenerator } from './autocannon-load.js';
import type { HttpWorkload } from './http-workload.js';
import { wrkGenerator } from './wrk-load.js';

/** What one load run measured, whichever generator ran it. */
export interface LoadResult {
  requests: number;
  durationSeconds: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyAvgMs: number;
  /** Connections that failed: connect, read and write errors and timeouts. */
  errors: number;
  /** Answers with a status of 300 or above. */
  non2xx: number;
}

export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** Loads `base` with `workload` for `seconds` over the generator's connections. */
  run(base: string, workload: HttpWorkload, seconds: number): Promise<LoadResult>;
}

export interface GeneratorSetting {
  /** `autocannon` forces the fallback. */
  preference: 'auto' | 'autocannon';
  /** Where the generator's scripts and workload files go. */
  dir: string;
  connections: number;
  cpu: number | undefined;
}

/** Whether `wrk` runs here (ENOENT when it is not installed; `-v` itself exits non-zero). */
function wrkInstalled(): boolean {
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

export function chooseLoadGenerator(setting: GeneratorSetting): LoadGenerator {
  return setting.preference === 'auto' && wrkInstalled() ? wrkGenerator(setting) : autocannonGenerator(setting);
}
