/** User and system CPU seconds of a process from /proc/<pid>/stat (Linux; undefined elsewhere or once it has exited). */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

export function userSystemSeconds(pid: number | undefined): { user: number; system: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}
