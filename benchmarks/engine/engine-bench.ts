/**
 * Engine throughput on one core: evaluations per second of a typical variant flag and of a boolean
 * flag with two rollouts, rotating over 10,000 pre-generated entity ids and contexts; then, in
 * interleaved rounds, what a validity window and a chain of prerequisites cost against them, and,
 * with `BENCH_BASELINE_ENGINE` set to another build's `index.js`, the plain flags against that build.
 * Run: `npm run bench:engine` (writes benchmarks/results/engine.json).
 */
import os from 'node:os';
import * as engine from '@ensign/engine';
import { compileSnapshot, evaluateBoolean, evaluateVariant, isFailure } from '@ensign/engine';
import type { CompiledSnapshot, FlagInput, HashMode, SnapshotDocument } from '@ensign/engine';
import { EvaluationTally } from '@ensign/evaluator';
import { BOOLEAN_FLAG, VARIANT_FLAG, benchmarkDocument, contexts, entityIds } from './fixtures.js';
import { interleaved, type RoundCase } from './interleaved-rounds.js';
import { writeResults } from './results-file.js';
import { CHAIN_FLAG, SWITCHED_FLAG, WINDOW_FLAG, timedDocument } from './timed-fixtures.js';

const WARMUP_MS = Number(process.env['BENCH_WARMUP_MS'] ?? 1000);
const MEASURE_MS = Number(process.env['BENCH_MEASURE_MS'] ?? 3000);
const INPUTS = 10_000;
const CHUNK = 50_000;
const NOW = Date.parse('2025-06-01T00:00:00Z');
const ENV = { now: () => NOW };
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 6);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 1000);
const BASELINE_ENGINE = process.env['BENCH_BASELINE_ENGINE'];
/** CPU per request of `ensign evaluator` serving one variant evaluation (bench:http: about 24,700 requests per core-second). */
const REQUEST_CPU_NS = Number(process.env['BENCH_REQUEST_CPU_NS'] ?? 40_000);

/**
 * One case. The headline figure is per CPU second of this (single-threaded) process, so that other
 * load on the machine does not count against it; wall-clock throughput is reported next to it.
 */
interface CaseResult {
  name: string;
  hash: HashMode;
  evaluations: number;
  wallSeconds: number;
  cpuSeconds: number;
  opsPerCpuSecond: number;
  opsPerWallSecond: number;
  nsPerOp: number;
  positiveRate: number;
}

/** Inputs as a server would see them: parsed from a JSON body (flat strings, JSON-shaped objects). */
function inputsFor(flagKey: string): FlagInput[] {
  const ids = entityIds(INPUTS);
  const ctxs = contexts(INPUTS);
  const bodies = ids.map((entityId, i) => JSON.stringify({ flagKey, entityId, context: ctxs[i] }));
  return bodies.map((body) => JSON.parse(body) as FlagInput);
}

type Evaluate = (compiled: CompiledSnapshot, input: FlagInput) => boolean;

const variant: Evaluate = (compiled, input) => {
  const r = evaluateVariant(compiled, input, ENV);
  if (isFailure(r)) throw new Error(r.message);
  return r.match;
};

const boolean: Evaluate = (compiled, input) => {
  const r = evaluateBoolean(compiled, input, ENV);
  if (isFailure(r)) throw new Error(r.message);
  return r.enabled;
};

/**
 * Evaluations counted as every transport counts them (for `/metrics` and analytics): timed with
 * `performance.now()` and added to the process's tally; the cost of counting is this case's time
 * less the uncounted one's.
 */
const tally = new EvaluationTally();

const countedVariant: Evaluate = (compiled, input) => {
  const started = performance.now();
  const r = evaluateVariant(compiled, input, ENV);
  if (isFailure(r)) throw new Error(r.message);
  tally.variant('default', input.flagKey, r, performance.now() - started);
  return r.match;
};

const countedBoolean: Evaluate = (compiled, input) => {
  const started = performance.now();
  const r = evaluateBoolean(compiled, input, ENV);
  if (isFailure(r)) throw new Error(r.message);
  tally.boolean('default', input.flagKey, r, performance.now() - started);
  return r.enabled;
};

/**
 * Runs chunks of evaluations until `ms` of wall time have passed. Returns the evaluations, the wall
 * and CPU nanoseconds spent, and how many answers were positive (which also keeps the work alive).
 */
function run(compiled: CompiledSnapshot, inputs: FlagInput[], evaluate: Evaluate, ms: number) {
  const deadline = process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let evaluations = 0;
  let positives = 0;
  let i = 0;
  let now = start;
  while (now < deadline) {
    for (let k = 0; k < CHUNK; k++) {
      if (evaluate(compiled, inputs[i]!)) positives++;
      i = i + 1 === inputs.length ? 0 : i + 1;
    }
    evaluations += CHUNK;
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpuStart);
  return { evaluations, wallNs: Number(now - start), cpuNs: (cpu.user + cpu.system) * 1000, positives };
}

function measure(name: string, hash: HashMode, flagKey: string, evaluate: Evaluate): CaseResult {
  const compiled = compileSnapshot(benchmarkDocument(), { hash });
  const inputs = inputsFor(flagKey);
  run(compiled, inputs, evaluate, WARMUP_MS);
  const r = run(compiled, inputs, evaluate, MEASURE_MS);
  return {
    name,
    hash,
    evaluations: r.evaluations,
    wallSeconds: r.wallNs / 1e9,
    cpuSeconds: r.cpuNs / 1e9,
    opsPerCpuSecond: Math.round(r.evaluations / (r.cpuNs / 1e9)),
    opsPerWallSecond: Math.round(r.evaluations / (r.wallNs / 1e9)),
    nsPerOp: Math.round((r.cpuNs / r.evaluations) * 10) / 10,
    positiveRate: Math.round((r.positives / r.evaluations) * 1000) / 1000,
  };
}

const cases: CaseResult[] = [
  measure('variant (2 rules, 3 constraints, 3-way split)', 'murmur3', VARIANT_FLAG, variant),
  measure('boolean (segment + threshold rollouts)', 'murmur3', BOOLEAN_FLAG, boolean),
  measure('variant (2 rules, 3 constraints, 3-way split)', 'crc32', VARIANT_FLAG, variant),
  measure('boolean (segment + threshold rollouts)', 'crc32', BOOLEAN_FLAG, boolean),
  measure('variant, counted', 'murmur3', VARIANT_FLAG, countedVariant),
  measure('boolean, counted', 'murmur3', BOOLEAN_FLAG, countedBoolean),
];

const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);
const fmt = (n: number) => n.toLocaleString('en-US');
console.log(`\n${pad('case', 48)} ${pad('hash', 8)} ${lpad('evals/cpu-s', 12)} ${lpad('ns/op', 7)} ${lpad('evals/wall-s', 13)} ${lpad('positive', 9)}`);
for (const c of cases) {
  console.log(
    `${pad(c.name, 48)} ${pad(c.hash, 8)} ${lpad(fmt(c.opsPerCpuSecond), 12)} ${lpad(c.nsPerOp.toFixed(1), 7)} ${lpad(fmt(c.opsPerWallSecond), 13)} ${lpad(c.positiveRate.toFixed(3), 9)}`,
  );
}
const nsOf = (name: string) => cases.find((c) => c.name.startsWith(name) && c.hash === 'murmur3')?.nsPerOp ?? 0;
const countingNs = { variant: nsOf('variant, counted') - nsOf('variant (2'), boolean: nsOf('boolean, counted') - nsOf('boolean (') };
console.log(
  `\ncounting an evaluation (timing it and adding it to the tally): ${countingNs.variant.toFixed(1)} ns (variant), ${countingNs.boolean.toFixed(1)} ns (boolean); ` +
    `against the ${fmt(Math.round(REQUEST_CPU_NS / 1000))} µs of CPU an evaluator spends per request (npm run bench:http), ${((Math.max(countingNs.variant, countingNs.boolean) / REQUEST_CPU_NS) * 100).toFixed(2)} %`,
);

/** The evaluate functions of one engine build: this one, or the baseline's. */
type Engine = Pick<typeof engine, 'compileSnapshot' | 'evaluateBoolean' | 'evaluateVariant'>;

/** The evaluations of the engine module `using` as one interleaved case. */
function roundCase(name: string, using: Engine, document: SnapshotDocument, flagKey: string): RoundCase {
  const compiled = using.compileSnapshot(document, { hash: 'murmur3' });
  const inputs = inputsFor(flagKey);
  const kind = compiled.flags.get(flagKey)?.type;
  const evaluate: Evaluate =
    kind === 'BOOLEAN_FLAG_TYPE'
      ? (c, input) => (using.evaluateBoolean(c, input, ENV) as { enabled: boolean }).enabled
      : (c, input) => (using.evaluateVariant(c, input, ENV) as { match: boolean }).match;
  return { name, run: (ms) => run(compiled, inputs, evaluate, ms) };
}

/** The plain flags on this build and on the baseline build, interleaved: this build's share of the baseline's rate. */
async function againstBaseline(path: string): Promise<Record<string, number>> {
  const baseline = (await import(path)) as Engine;
  const document = benchmarkDocument();
  const rates = interleaved(
    [
      roundCase('variant, baseline', baseline, document, VARIANT_FLAG),
      roundCase('variant', engine, document, VARIANT_FLAG),
      roundCase('boolean, baseline', baseline, document, BOOLEAN_FLAG),
      roundCase('boolean', engine, document, BOOLEAN_FLAG),
    ],
    ROUNDS,
    ROUND_MS,
  );
  const share = (name: string) => Math.round((rates.get(name)! / rates.get(`${name}, baseline`)!) * 1000) / 1000;
  const result = { variant: share('variant'), boolean: share('boolean') };
  console.log(`\nagainst ${path} (${ROUNDS} interleaved rounds): ${[...rates].map(([name, rate]) => `${name} ${fmt(rate)}/cpu-s`).join(', ')}`);
  console.log(`this build's rate / the baseline's: variant ${result.variant.toFixed(3)}, boolean ${result.boolean.toFixed(3)}`);
  return result;
}
// Before any timed flag is evaluated, as in a process that serves none.
const baselineShare = BASELINE_ENGINE === undefined ? undefined : await againstBaseline(BASELINE_ENGINE);

const timed = timedDocument(NOW);
const featureRates = interleaved(
  [
    roundCase('variant', engine, timed, VARIANT_FLAG),
    roundCase('variant, window', engine, timed, WINDOW_FLAG),
    roundCase('boolean', engine, timed, BOOLEAN_FLAG),
    roundCase('boolean, chain of three', engine, timed, CHAIN_FLAG),
    roundCase('boolean, behind two switches', engine, timed, SWITCHED_FLAG),
  ],
  ROUNDS,
  ROUND_MS,
);
const costOf = (name: string, plain: string) => Math.round((featureRates.get(plain)! / featureRates.get(name)!) * 100) / 100;
const featureCost = {
  window: costOf('variant, window', 'variant'),
  chainOfThree: costOf('boolean, chain of three', 'boolean'),
  behindTwoSwitches: costOf('boolean, behind two switches', 'boolean'),
};
console.log(`\n${ROUNDS} interleaved rounds of ${ROUND_MS} ms (murmur3): ${[...featureRates].map(([name, rate]) => `${name} ${fmt(rate)}/cpu-s`).join(', ')}`);
console.log(
  'CPU time per evaluation against the plain flag: ' +
    `variant with a window ${featureCost.window.toFixed(2)}x, boolean at the end of a chain of three like flags ${featureCost.chainOfThree.toFixed(2)}x, ` +
    `boolean behind a chain of two on/off switches ${featureCost.behindTwoSwitches.toFixed(2)}x`,
);

const loadAverage = os.loadavg()[0] ?? 0;
if (loadAverage > 1.5) console.log(`\n(load average ${loadAverage.toFixed(1)}: other work was running; the wall-clock figures suffer most)`);

const path = writeResults('engine.json', {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  warmupMs: WARMUP_MS,
  measureMs: MEASURE_MS,
  inputs: INPUTS,
  loadAverage: os.loadavg(),
  cases,
  countingNs,
  rounds: { rounds: ROUNDS, roundMs: ROUND_MS, ratesPerCpuSecond: Object.fromEntries(featureRates), featureCost },
  ...(baselineShare === undefined ? {} : { baseline: { engine: BASELINE_ENGINE, share: baselineShare } }),
});
console.log(`\nwritten ${path}`);
