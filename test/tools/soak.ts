/**
 * `npm run soak`: the chaos soak at full length (10 minutes, a fault every 30 s, 500 streams), its
 * figures printed as Markdown and written to benchmarks/results/soak.json. Settings by environment:
 * SOAK_DURATION_S, SOAK_FAULT_EVERY_S, SOAK_STREAMS, SOAK_EVALUATIONS_PER_S, SOAK_WRITES_PER_S,
 * SOAK_EVALUATORS. Exits 1 when a goal is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '@ensign/testkit';
import { formatSoakReport, runSoak } from '../helpers/soak/soak.js';

const setting = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(value)}`);
  return n;
};

const report = await runSoak({
  durationMs: setting('SOAK_DURATION_S', 600) * 1000,
  faultEveryMs: setting('SOAK_FAULT_EVERY_S', 30) * 1000,
  streams: setting('SOAK_STREAMS', 500),
  evaluationsPerSecond: setting('SOAK_EVALUATIONS_PER_S', 100),
  writesPerSecond: setting('SOAK_WRITES_PER_S', 5),
  evaluators: setting('SOAK_EVALUATORS', 3),
  log: (line) => console.log(`[${new Date().toISOString()}] ${line}`),
});
const results = join(repositoryRoot, 'benchmarks/results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'soak.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\n${formatSoakReport(report)}`);
process.exit(report.problems.length === 0 ? 0 : 1);
