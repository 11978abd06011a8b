/**
 * A process with the children it forked (an `ensign evaluator --workers N` primary and its
 * workers), read from /proc: their pids, their CPU time together, and the memory of each.
 */
import { readFileSync } from 'node:fs';
import { cpuSeconds } from '../propagation/process-cpu.js';
import { rssMb } from './process-memory.js';

/** `pid` and its direct children (Linux; just `pid` where /proc does not say). */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children === '' ? [] : children.split(/\s+/).map(Number))];
  } catch {
    return [pid];
  }
}

/** User + system CPU seconds of every process of `pids`, or undefined when one cannot be read. */
export function cpuOfAll(pids: readonly number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const cpu = cpuSeconds(pid);
    if (cpu === undefined) return undefined;
    total += cpu;
  }
  return total;
}

/**
 * The proportional set size of a process in MB (10^6 bytes): its resident pages, each shared page
 * divided among the processes sharing it (node's code, forked workers' common pages), so the PSS of
 * several processes adds up where their RSS would count shared pages again.
 */
export function pssMb(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n').find((l) => l.startsWith('Pss:'));
    const kib = Number(line?.split(/\s+/)[1]);
    return Number.isFinite(kib) ? Math.round((kib * 1024) / 1e5) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Each process's resident and proportional memory, in MB. */
export function memoryOf(pids: readonly number[]): Array<{ pid: number; rssMb: number | undefined; pssMb: number | undefined }> {
  return pids.map((pid) => ({ pid, rssMb: rssMb(pid), pssMb: pssMb(pid) }));
}
