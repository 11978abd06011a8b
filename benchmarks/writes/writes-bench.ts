/**
 * What a write costs as the namespace grows: for each database and namespace size, one-flag writes
 * through `ensign server` publishing to NATS with an `ensign evaluator` following, timed and costed in
 * server CPU and NATS bytes; then a Flipt-shaped import through `/api/v1`; with BENCH_WRITES_AUTHZ,
 * the same writes with authorization on and off (authz-run.ts).
 * Run: `npm run bench:writes` (BENCH_WRITES_* variables, see options.ts); writes results/writes.json.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, runToExit } from '../propagation/children.js';
import { type AuthzFigures, printAuthz, runAuthz } from './authz-run.js';
import { type ImportFigures, runImport } from './import-run.js';
import { readOptions } from './options.js';
import { latencyRatios, printHeadline, printImports, printProblems, printWrites } from './writes-report.js';
import { runWrites, type WriteRunFigures } from './write-run.js';

/** Above this, the median write at the largest size is taken to depend on the namespace's size. */
const RATIO_LIMIT = 1.5;

const options = readOptions();
const elapsed = (since: number) => `${Math.round((performance.now() - since) / 1000)} s into the run`;
const clearTimeoutGuard = installSafetyNets(options.timeoutSeconds, 'write benchmark');

async function main(): Promise<number> {
  const started = performance.now();
  const loadAverageBefore = os.loadavg();
  const runs: WriteRunFigures[] = [];
  const imports: ImportFigures[] = [];
  const authz: AuthzFigures[] = [];
  const problems: string[] = [];
  for (const db of options.authz === 'only' ? [] : options.dbs) {
    for (const size of options.sizes) {
      console.log(`${db}, ${size.toLocaleString('en-US')} flags: seeding, starting, writing…`);
      try {
        const run = await runWrites(db, size, options.writes, options.warmupWrites);
        console.log(`  done: write p50 ${run.latency.p50} ms, commit → visible p50 ${run.commitToVisible.p50} ms (${elapsed(started)})`);
        runs.push(run);
        problems.push(...run.problems.map((p) => `${db}/${size}: ${p}`));
      } catch (err) {
        problems.push(`${db}/${size}: run failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
  }
  for (const db of options.importScenario && options.authz !== 'only' ? options.dbs : []) {
    console.log(`${db}: importing Flipt's integration-test shape…`);
    try {
      const figures = await runImport(db);
      console.log(`  done: ${figures.calls} calls in ${figures.totalSeconds} s (${elapsed(started)})`);
      imports.push(figures);
      problems.push(...figures.problems.map((p) => `${db} import: ${p}`));
    } catch (err) {
      problems.push(`${db} import failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  for (const db of options.authz === 'skip' ? [] : options.dbs) {
    console.log(`${db}: authorization on vs off, ${options.authzSize.toLocaleString('en-US')} flags: seeding both, starting, writing…`);
    try {
      const figures = await runAuthz(db, options);
      console.log(`  done: write p50 ${figures.on.latency.p50} ms on, ${figures.off.latency.p50} ms off (${elapsed(started)})`);
      authz.push(figures);
      problems.push(...figures.problems.map((p) => `${db} authorization: ${p}`));
    } catch (err) {
      problems.push(`${db} authorization comparison failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  if (runs.length > 0) printWrites(runs, options.writes);
  const ratios = latencyRatios(runs);
  printHeadline(ratios);
  for (const [db, r] of Object.entries(ratios)) {
    if (r!.ratio > RATIO_LIMIT) problems.push(`${db}: median write latency grows ${r!.ratio}× from ${r!.from} to ${r!.to} flags (limit ${RATIO_LIMIT})`);
  }
  printImports(imports);
  printAuthz(authz);
  printProblems(problems);
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(`\nrun time ${Math.floor(seconds / 60)} min ${seconds % 60} s`);

  // Run alone, the authorization comparison leaves the full run's results where they are.
  const path = writeResults(options.authz === 'only' ? 'writes-authz.json' : 'writes.json', {
    ...machineOf(loadAverageBefore),
    options,
    runSeconds: seconds,
    ratioLimit: RATIO_LIMIT,
    medianLatencyRatios: ratios,
    runs,
    imports,
    authz,
    problems,
  });
  console.log(`written ${path}`);
  return problems.length === 0 ? 0 : 1;
}

await runToExit('write benchmark', main, clearTimeoutGuard);
