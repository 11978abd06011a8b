/**
 * How many evaluating processes `evaluator.workers` asks for. `auto` is one per CPU the process may
 * use: `os.availableParallelism()` (the CPUs of its affinity mask, a container's cpuset), further
 * bounded by a CFS quota (`docker --cpus`, a Kubernetes CPU limit), which the libuv of Node 20 does
 * not read yet (1.49 does).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { WorkerSetting } from '../config/workers.kind.js';

/** The CPUs a cgroup quota allows (at least 1), or undefined without one; cgroup v2, then v1. */
export function cgroupCpuLimit(read: (path: string) => string = (path) => readFileSync(path, 'utf8')): number | undefined {
  const limit = (quota: number, period: number): number | undefined =>
    Number.isFinite(quota) && Number.isFinite(period) && quota > 0 && period > 0 ? Math.max(1, Math.floor(quota / period)) : undefined;
  try {
    const [quota = 'max', period = ''] = read('/sys/fs/cgroup/cpu.max').trim().split(/\s+/);
    return quota === 'max' ? undefined : limit(Number(quota), Number(period));
  } catch {
    // not cgroup v2
  }
  try {
    return limit(Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')), Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us')));
  } catch {
    return undefined;
  }
}

/** The number of workers to run. */
export function workerCountOf(setting: WorkerSetting, available: () => number = os.availableParallelism, quota: () => number | undefined = cgroupCpuLimit): number {
  if (setting !== 'auto') return setting;
  return Math.max(1, Math.min(available(), quota() ?? Number.POSITIVE_INFINITY));
}
