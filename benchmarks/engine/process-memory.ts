/**
 * Resident memory of a process from /proc/<pid>/status (Linux; undefined elsewhere or once it has
 * exited), in MB of 10^6 bytes, the unit of the memory aim.
 */
import { readFileSync } from 'node:fs';

function statusField(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    const kib = Number(line?.split(/\s+/)[1]);
    return Number.isFinite(kib) ? Math.round(kib * 1024 / 1e5) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** The most resident memory the process has held since it started (VmHWM), in MB. */
export const peakRssMb = (pid: number | undefined) => statusField(pid, 'VmHWM');

/** The resident memory it holds now (VmRSS), in MB. */
export const rssMb = (pid: number | undefined) => statusField(pid, 'VmRSS');
