/**
 * Start-up to SERVING: from spawning a process to its first `200` from `GET /health`, on an empty
 * database in a fresh directory, for
 *   - a bare Node HTTP server answering `/health` (the ceiling: Node's own start and listen),
 *   - `ensign server` as `npm start` runs it (`node packages/cli/dist/src/main.js`),
 *   - the single-file executable `dist/ensign-linux-<arch>` (`npm run package` builds it): its
 *     first start on a machine (the SQLite addon is written to the cache) and later starts.
 * `ensign server` starts gRPC before HTTP, so its `/health` answering means every port is served.
 * Run: `npm run bench:startup`; writes benchmarks/results/startup.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../engine/child-processes.js';
import { writeResults } from '../engine/results-file.js';
import { summarize, type Summary } from '../propagation/percentiles.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RUNS = Number(process.env['BENCH_STARTUP_RUNS'] ?? 15);
const AIM_MS = 1000;
const EXECUTABLE = join(ROOT, 'dist', `ensign-linux-${process.arch}`);
const BARE = "require('node:http').createServer((q, s) => s.end('{\"status\":\"SERVING\"}')).listen(Number(process.env.PORT), '127.0.0.1')";

interface Target {
  name: string;
  command: string;
  args: string[];
  /** A fresh HOME per run (the executable's first start on a machine) or one shared by every run. */
  home: 'fresh' | 'shared';
}

/** Polls `/health` until it answers 200; resolves the milliseconds since `started`. */
async function untilServing(port: number, started: number, child: ChildProcess): Promise<number> {
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('the process exited before serving');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > 30_000) throw new Error('not serving within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function startOnce(target: Target, sharedHome: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-startup-'));
  const home = target.home === 'fresh' ? join(dir, 'home') : sharedHome;
  const [http, grpc] = [await freePort(), await freePort()];
  const env = { PATH: '/usr/bin:/bin', HOME: home, PORT: String(http), ENSIGN_SERVER_HTTP_PORT: String(http), ENSIGN_SERVER_GRPC_PORT: String(grpc), ENSIGN_LOG_LEVEL: 'warn' };
  const started = performance.now();
  const child = spawn(target.command, target.args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    return await untilServing(http, started, child);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(target: Target): Promise<Summary & { runs: number[] }> {
  const sharedHome = mkdtempSync(join(tmpdir(), 'ensign-startup-home-'));
  try {
    await startOnce(target, sharedHome); // warm the page cache (and, shared, the addon cache)
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await startOnce(target, sharedHome));
    return { ...summarize(runs), runs };
  } finally {
    rmSync(sharedHome, { recursive: true, force: true });
  }
}

const targets: Target[] = [
  { name: 'bare node:http (ceiling)', command: process.execPath, args: ['-e', BARE], home: 'shared' },
  { name: 'ensign server via node (npm start)', command: process.execPath, args: [join(ROOT, 'packages/cli/dist/src/main.js'), 'server'], home: 'shared' },
];
if (existsSync(EXECUTABLE)) {
  targets.push({ name: `${EXECUTABLE.slice(ROOT.length)} server, first start`, command: EXECUTABLE, args: ['server'], home: 'fresh' });
  targets.push({ name: `${EXECUTABLE.slice(ROOT.length)} server`, command: EXECUTABLE, args: ['server'], home: 'shared' });
} else {
  console.warn(`${EXECUTABLE} is missing: run \`npm run package\` first (the executable's rows are left out)`);
}

console.log(`start-up to the first 200 from GET /health, empty SQLite database, ${RUNS} runs each\n`);
console.log(`${'target'.padEnd(46)}${'p50 ms'.padStart(8)}${'p90 ms'.padStart(8)}${'max ms'.padStart(8)}`);
const results: Record<string, Summary & { runs: number[] }> = {};
for (const target of targets) {
  const figures = await measure(target);
  results[target.name] = figures;
  console.log(`${target.name.padEnd(46)}${figures.p50.toFixed(0).padStart(8)}${figures.p90.toFixed(0).padStart(8)}${figures.max.toFixed(0).padStart(8)}`);
}
const executable = results[`${EXECUTABLE.slice(ROOT.length)} server`];
if (executable !== undefined) console.log(`\nexecutable p90 ${executable.p90.toFixed(0)} ms against the aim of ${AIM_MS} ms: ${executable.p90 < AIM_MS ? 'met' : 'NOT met'}`);
console.log(`written ${writeResults('startup.json', { runs: RUNS, node: process.version, results })}`);
