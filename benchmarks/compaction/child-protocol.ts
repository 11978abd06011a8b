/** What the compaction benchmark and its evaluator processes share. */

/** How both sides compile (the evaluator's default hash). */
export const COMPILE = { hash: 'murmur3' as const };

/** What an evaluator process tells the benchmark. */
export type ChildMessage =
  | { kind: 'ready'; port: number }
  | { kind: 'entry'; entry: 'hydration' | 'delta'; revision: number; cpuMs: number; decodeCpuMs: number; wallMs: number; maxDelayMs: number; blockCpuMs: number };
