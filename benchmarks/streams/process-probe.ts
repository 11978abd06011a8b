/**
 * Readings of a process the streams are held by: resident memory and CPU seconds, from an ensign
 * process's own `/metrics` (`process_resident_memory_bytes`, `process_cpu_seconds_total`, and the
 * time its GC took, `nodejs_gc_duration_seconds_sum`), or from /proc for the bare ceiling.
 */
import { rssMb as procRssMb, peakRssMb } from '../engine/process-memory.js';
import type { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { cpuSeconds as procCpuSeconds } from '../propagation/process-cpu.js';

export interface Reading {
  /** MB of 10^6 bytes. */
  rssMb: number | undefined;
  /** The most it has been resident since it started (VmHWM), MB. */
  peakRssMb: number | undefined;
  cpuSeconds: number | undefined;
  gcSeconds: number | undefined;
  /** V8's heap in use and the memory of Buffers and other objects outside it, MB (ensign only). */
  heapUsedMb: number | undefined;
  externalMb: number | undefined;
  /** Streams the process counts as open, and as dropped for staying behind (ensign only). */
  streamsOpen: number | undefined;
  streamsDropped: number | undefined;
}

export type Probe = () => Promise<Reading>;

/** The sum of every sample of `name` (all label sets); undefined when there is none. */
function sampleSum(text: string, name: string): number | undefined {
  let sum: number | undefined;
  const pattern = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm');
  for (const m of text.matchAll(pattern)) sum = (sum ?? 0) + Number(m[1]);
  return sum;
}

export const procProbe =
  (pid: number | undefined): Probe =>
  async () => ({ rssMb: procRssMb(pid), peakRssMb: peakRssMb(pid), cpuSeconds: procCpuSeconds(pid), gcSeconds: undefined, heapUsedMb: undefined, externalMb: undefined, streamsOpen: undefined, streamsDropped: undefined });

/** Reads `/metrics` of an ensign process (its figures there, /proc where a metric is missing). */
export const metricsProbe =
  (client: KeepAliveClient, pid: number | undefined): Probe =>
  async () => {
    const reply = await client.send('GET', '/metrics');
    if (reply.status !== 200) throw new Error(`GET /metrics → ${reply.status}`);
    const rssBytes = sampleSum(reply.text, 'process_resident_memory_bytes');
    const mb = (bytes: number | undefined) => (bytes === undefined ? undefined : Math.round(bytes / 1e5) / 10);
    return {
      rssMb: mb(rssBytes) ?? procRssMb(pid),
      peakRssMb: peakRssMb(pid),
      cpuSeconds: sampleSum(reply.text, 'process_cpu_seconds_total') ?? procCpuSeconds(pid),
      gcSeconds: sampleSum(reply.text, 'nodejs_gc_duration_seconds_sum'),
      heapUsedMb: mb(sampleSum(reply.text, 'nodejs_heap_size_used_bytes')),
      externalMb: mb(sampleSum(reply.text, 'nodejs_external_memory_bytes')),
      streamsOpen: sampleSum(reply.text, 'ensign_streams_open'),
      streamsDropped: sampleSum(reply.text, 'ensign_streams_dropped_total'),
    };
  };
