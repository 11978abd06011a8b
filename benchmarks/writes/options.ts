/** The write benchmark's settings, from `BENCH_WRITES_*` variables so a quick run needs no code change. */

export type BenchDb = 'sqlite' | 'postgres' | 'mysql';

export interface WriteOptions {
  /** Databases to run on, in order. */
  dbs: BenchDb[];
  /** Flags in the namespace, one run per size. */
  sizes: number[];
  /** Measured one-flag writes per run. */
  writes: number;
  /** Unmeasured writes first: JIT warm-up and the first hydration after start stay out of the figures. */
  warmupWrites: number;
  /** Whether to run the Flipt-import scenario on every database. */
  importScenario: boolean;
  /** The whole benchmark is stopped after this many seconds. */
  timeoutSeconds: number;
  /** The authorization comparison (authz-run.ts): skipped, run after the others, or run alone. */
  authz: 'skip' | 'also' | 'only';
  /** Flags of its namespace. */
  authzSize: number;
  /** Interleaved rounds, each of `authzRoundWrites` measured writes per arm. */
  authzRounds: number;
  authzRoundWrites: number;
}

function list(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function positiveInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: ${value} is not a positive integer`);
  return n;
}

/** Reads the environment; throws on a value it cannot use. */
export function readOptions(): WriteOptions {
  const dbs = list('BENCH_WRITES_DBS', 'sqlite,postgres').map((db) => {
    if (db !== 'sqlite' && db !== 'postgres' && db !== 'mysql') throw new Error(`BENCH_WRITES_DBS: ${db} is none of sqlite, postgres and mysql`);
    return db as BenchDb;
  });
  const authz = process.env['BENCH_WRITES_AUTHZ'] ?? '0';
  if (authz !== '0' && authz !== '1' && authz !== 'only') throw new Error(`BENCH_WRITES_AUTHZ: ${authz} is none of 0, 1 and only`);
  return {
    dbs,
    sizes: list('BENCH_WRITES_SIZES', '100,1000,10000').map((s) => positiveInteger('BENCH_WRITES_SIZES', s)),
    writes: positiveInteger('BENCH_WRITES_COUNT', process.env['BENCH_WRITES_COUNT'] ?? '300'),
    warmupWrites: Number(process.env['BENCH_WRITES_WARMUP'] ?? '20'),
    importScenario: process.env['BENCH_WRITES_IMPORT'] !== '0',
    timeoutSeconds: positiveInteger('BENCH_WRITES_TIMEOUT', process.env['BENCH_WRITES_TIMEOUT'] ?? '3600'),
    authz: authz === 'only' ? 'only' : authz === '1' ? 'also' : 'skip',
    authzSize: positiveInteger('BENCH_WRITES_AUTHZ_SIZE', process.env['BENCH_WRITES_AUTHZ_SIZE'] ?? '1000'),
    authzRounds: positiveInteger('BENCH_WRITES_AUTHZ_ROUNDS', process.env['BENCH_WRITES_AUTHZ_ROUNDS'] ?? '10'),
    authzRoundWrites: positiveInteger('BENCH_WRITES_AUTHZ_ROUND_WRITES', process.env['BENCH_WRITES_AUTHZ_ROUND_WRITES'] ?? '30'),
  };
}
