/** The snapshot-stream benchmark's settings, from BENCH_STREAMS* environment variables (see benchmarks/README.md). */
import os from 'node:os';

const env = process.env;

function numberOf(name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, not ${raw}`);
  return n;
}

const whole = (name: string, fallback: number, min = 0) => Math.round(numberOf(name, fallback, min));

/**
 * `BENCH_STREAMS_PIN=1` puts the process holding the streams on CPU 0 and everything else (client
 * processes, the server it follows, the benchmark) on CPU 1. Off by default, as in bench:propagation:
 * on the 2-vCPU machine of the README's figures it changed nothing but the noise.
 */
const pin = env['BENCH_STREAMS_PIN'] === '1' && os.cpus().length >= 2;

export const STREAMS_OPTIONS = {
  /** Streams held open on `ensign evaluator` (and on the bare ceiling). */
  streams: whole('BENCH_STREAMS', 10_000, 1),
  /** Streams held open on `ensign server` alone; 0 skips that part. */
  serverStreams: whole('BENCH_STREAMS_SERVER', 1_000),
  /** Measured writes per target. */
  writes: whole('BENCH_STREAMS_WRITES', 20, 1),
  /** Unmeasured writes per target first (JIT warm-up of the fan-out path). */
  warmupWrites: whole('BENCH_STREAMS_WARMUP_WRITES', 2),
  /** Time from one write's start to the next one's (a write waits for every stream's message first). */
  spacingMs: numberOf('BENCH_STREAMS_SPACING_MS', 500),
  /** Flags in the streamed namespace: the watched one and boolean flags with two rollouts each. */
  flags: whole('BENCH_STREAMS_FLAGS', 20, 1),
  /** Client processes the streams are split over (each holds streams / processes sockets). */
  clientProcesses: whole('BENCH_STREAMS_CLIENT_PROCESSES', 4, 1),
  /** Connections each client process has opening at once (the servers' listen backlog is 511). */
  openConcurrency: whole('BENCH_STREAMS_OPEN_CONCURRENCY', 64, 1),
  /** A stream that has not had a write's message after this long counts it as lost. */
  lostAfterMs: numberOf('BENCH_STREAMS_LOST_AFTER_MS', 5_000, 100),
  /** Seconds after the last write before a target's memory is read once more; 0 skips that reading. */
  settleSeconds: numberOf('BENCH_STREAMS_SETTLE_SECONDS', 10),
  /** The whole run is stopped after this many seconds. */
  timeoutSeconds: numberOf('BENCH_STREAMS_TIMEOUT_SECONDS', 480, 10),
  serverCpu: pin ? 0 : undefined,
  clientCpu: pin ? 1 : undefined,
  /** Extra node flags for the ensign processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  serverNodeArgs: (env['BENCH_STREAMS_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
};

export type StreamsOptions = typeof STREAMS_OPTIONS;

/** The aims with 10,000 streams on one evaluator. */
export const AIM_LAST_P99_MS = 100;
export const AIM_RSS_MB = 250;
