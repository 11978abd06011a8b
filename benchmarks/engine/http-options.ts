/** The HTTP benchmark's settings, from BENCH_HTTP_* environment variables (see benchmarks/README.md). */
import os from 'node:os';
import { resolve } from 'node:path';

const env = process.env;

function numberOf(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
  return n;
}

/**
 * With two or more CPUs every server under test gets CPU 0 and the load generator CPU 1
 * (BENCH_HTTP_PIN=0 turns this off), so each has a core of its own and the comparison is server
 * against server.
 */
const pin = env['BENCH_HTTP_PIN'] !== '0' && os.cpus().length >= 2;

export const HTTP_OPTIONS = {
  /** Rounds: every target is measured once per round, in the same order. */
  rounds: Math.max(1, Math.round(numberOf('BENCH_HTTP_ROUNDS', 5))),
  /** Measured seconds per target and round. */
  seconds: numberOf('BENCH_HTTP_SECONDS', 3),
  /** Unmeasured seconds of the same load before a target's first round (at most 1 s before later ones), so the JIT and the connections are warm. */
  warmupSeconds: numberOf('BENCH_HTTP_WARMUP_SECONDS', 2),
  /** Connections of the HTTP load, and calls in flight of the gRPC one. */
  connections: numberOf('BENCH_HTTP_CONNECTIONS', 32),
  /** Flags of the namespace whose memory an evaluator is measured holding; 0 skips that measurement. */
  memoryFlags: numberOf('BENCH_HTTP_MEMORY_FLAGS', 10_000),
  /** Seconds of variant evaluations the evaluator holding that namespace answers before its peak RSS is read. */
  memorySeconds: numberOf('BENCH_HTTP_MEMORY_SECONDS', 5),
  /** The whole run is stopped after this many seconds. */
  timeoutSeconds: numberOf('BENCH_HTTP_TIMEOUT_SECONDS', 1200),
  /** `autocannon` forces the fallback load generator even where wrk is installed. */
  loadGenerator: env['BENCH_HTTP_LOAD_GENERATOR'] === 'autocannon' ? ('autocannon' as const) : ('auto' as const),
  serverCpu: pin ? 0 : undefined,
  clientCpu: pin ? 1 : undefined,
  /**
   * Which ensign targets run: `|`-separated parts of their names (`evaluator|batch`), any of which a
   * target's name must contain; every target when empty. The bare servers always run, being the yardsticks.
   */
  targets: (env['BENCH_HTTP_TARGETS'] ?? '').split('|').map((part) => part.trim()).filter(Boolean),
  /** The single-file executable (`dist/ensign-linux-<arch>`) to run every ensign target with, instead of node and the compiled CLI. */
  executable: env['BENCH_HTTP_EXECUTABLE'] === undefined || env['BENCH_HTTP_EXECUTABLE'] === '' ? undefined : resolve(env['BENCH_HTTP_EXECUTABLE']),
  /** Extra node flags for every ensign process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them. */
  serverNodeArgs: (env['BENCH_HTTP_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
};

/** The aim for an evaluator holding the large namespace. */
export const MEMORY_AIM_MB = 150;
