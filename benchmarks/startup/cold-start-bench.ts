/**
 * An evaluator joining a cluster that serves a large namespace: from spawning `ensign evaluator` to
 * its first 200 for an evaluation in that namespace (the namespace fetched from NATS on the first
 * request), beside what fetching the hydration alone takes (connect to NATS, read the bucket's
 * entry and its object, unzip and parse it, in this process) and a bare Node server's start to its
 * first answer (Node's own part). One `ensign server` on SQLite publishes the namespace
 * (BENCH_COLD_START_FLAGS boolean flags, 10,000 by default, each with a threshold rollout).
 * Run: `npm run bench:cold-start`; writes benchmarks/results/cold-start.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSnapshotBus } from '@ensign/bus';
import { testBucket } from '@ensign/testkit';
import { freePort } from '../engine/child-processes.js';
import { machineOf, writeResults } from '../engine/results-file.js';
import { startNode } from '../propagation/ensign-cluster.js';
import { summarize, type Summary } from '../propagation/percentiles.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI_MAIN = join(ROOT, 'packages/cli/dist/src/main.js');
/** The single-file executable (`npm run package`), measured too when it is there. */
const EXECUTABLE = join(ROOT, 'dist', `ensign-linux-${process.arch}`);
const RUNS = Number(process.env['BENCH_COLD_START_RUNS'] ?? 10);
const FLAGS = Number(process.env['BENCH_COLD_START_FLAGS'] ?? 10_000);
const AIM_MS = 1000;
const NS = 'cold-start';
/** A one-flag namespace: the evaluator's own start, without the large namespace's fetch and compile. */
const SMALL_NS = 'cold-start-small';
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";

/** Posts `body` to `port` until it answers 200 or `child` exits; resolves the ms since `started`. */
async function firstOk(port: number, path: string, body: unknown, started: number, child: ChildProcess): Promise<number> {
  let exited = false;
  child.once('exit', () => (exited = true));
  const payload = JSON.stringify(body);
  for (;;) {
    if (exited) throw new Error('the process exited before answering');
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > 60_000) throw new Error('no 200 within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Spawns `args` with `env` and times its first 200 for `body`; stops it. */
async function timeFirstAnswer(args: string[], env: Record<string, string>, path: string, body: unknown, command = process.execPath): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ensign-cold-start-'));
  const [http, grpc] = [await freePort(), await freePort()];
  const childEnv: Record<string, string> = { PATH: '/usr/bin:/bin', HOME: dir, PORT: String(http), ENSIGN_SERVER_HTTP_PORT: String(http), ENSIGN_SERVER_GRPC_PORT: String(grpc), ENSIGN_LOG_LEVEL: 'warn', ...env };
  const started = performance.now();
  const child = spawn(command, args, { cwd: dir, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    return await firstOk(http, path, body, started, child);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Connect, read the namespace's hydration (and object), unzip and parse it: in this process. */
async function timeFetch(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const bus = openSnapshotBus({ url: env.ENSIGN_NATS_URL!, bucket: env.ENSIGN_NATS_BUCKET!, objectStore: env.ENSIGN_NATS_OBJECT_STORE! });
  try {
    const held = await bus.get(NS);
    if (held === undefined) throw new Error(`the bucket holds no ${NS}`);
    return performance.now() - started;
  } finally {
    await bus.close();
  }
}

/** A Flipt document of boolean flags `from` to `to` (exclusive), each with a threshold rollout. */
function document(from: number, to: number): unknown {
  const flags = [];
  for (let i = from; i < to; i++) flags.push({ key: `flag-${i}`, name: `Flag ${i}`, type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ threshold: { percentage: (i * 7) % 100, value: true } }] });
  return { version: '1.2', flags };
}
/** Flags per import: each document stays under the server's 1 MB body limit. */
const IMPORT_CHUNK = 2_000;

const loadBefore = os.loadavg();
const bucket = testBucket('ensign_bench_cold');
const nats = bucket.env();
const workDir = mkdtempSync(join(tmpdir(), 'ensign-cold-start-server-'));
const server = await startNode('ensign server', 'server', workDir, { ...nats, ENSIGN_DB_URL: `file:${join(workDir, 'ensign.db')}` });
const evaluation = { namespaceKey: NS, flagKey: `flag-${FLAGS - 1}`, entityId: 'u1' };
try {
  await server.client.json('POST', '/api/v1/namespaces', { key: NS, name: 'Cold start' });
  await server.client.json('POST', '/api/v1/namespaces', { key: SMALL_NS, name: 'Cold start, one flag' });
  await server.client.json('POST', `/api/v1/namespaces/${SMALL_NS}/flags`, { key: 'flag-0', name: 'Flag 0', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  for (let from = 0; from < FLAGS; from += IMPORT_CHUNK) await server.client.json('POST', `/api/v1/namespaces/${NS}/import`, document(from, Math.min(FLAGS, from + IMPORT_CHUNK)));
  // One evaluator started and stopped first: the hydration is published, and the page cache warm.
  await timeFirstAnswer([CLI_MAIN, 'evaluator'], nats, '/evaluate/v1/boolean', evaluation);

  const rows: Record<string, Summary & { runs: number[] }> = {};
  const arms: Array<[string, () => Promise<number>]> = [
    ['bare node:http, spawn to first answer', () => timeFirstAnswer(['-e', BARE], {}, '/', {})],
    ['fetch the hydration alone (connect, read, unzip, parse)', () => timeFetch(nats)],
    ['ensign evaluator, spawn to first evaluation of a one-flag namespace', () => timeFirstAnswer([CLI_MAIN, 'evaluator'], nats, '/evaluate/v1/boolean', { namespaceKey: SMALL_NS, flagKey: 'flag-0', entityId: 'u1' })],
    [`ensign evaluator, spawn to first evaluation of a ${FLAGS.toLocaleString('en')}-flag namespace`, () => timeFirstAnswer([CLI_MAIN, 'evaluator'], nats, '/evaluate/v1/boolean', evaluation)],
  ];
  if (existsSync(EXECUTABLE)) {
    arms.push([`${EXECUTABLE.slice(ROOT.length)} evaluator, the same`, () => timeFirstAnswer(['evaluator'], nats, '/evaluate/v1/boolean', evaluation, EXECUTABLE)]);
  } else {
    console.warn(`${EXECUTABLE} is missing: run \`npm run package\` first (the executable's row is left out)`);
  }
  const runs = new Map<string, number[]>(arms.map(([name]) => [name, []]));
  // Interleaved: each round runs every arm once, so a busy moment of the machine touches them alike.
  for (let round = 0; round < RUNS; round++) for (const [name, arm] of arms) runs.get(name)!.push(await arm());
  console.log(`cold start, ${RUNS} interleaved rounds\n`);
  console.log(`${'arm'.padEnd(76)}${'p50 ms'.padStart(8)}${'p90 ms'.padStart(8)}${'max ms'.padStart(8)}`);
  for (const [name, samples] of runs) {
    const figures = { ...summarize(samples), runs: samples };
    rows[name] = figures;
    console.log(`${name.padEnd(76)}${figures.p50.toFixed(0).padStart(8)}${figures.p90.toFixed(0).padStart(8)}${figures.max.toFixed(0).padStart(8)}`);
  }
  for (const [name] of arms.slice(3)) {
    const evaluator = rows[name]!;
    console.log(`\n${name}: p90 ${evaluator.p90.toFixed(0)} ms against the aim of ${AIM_MS} ms: ${evaluator.p90 <= AIM_MS ? 'met' : 'NOT met'}`);
  }
  console.log(`written ${writeResults('cold-start.json', { runs: RUNS, flags: FLAGS, machine: machineOf(loadBefore), results: rows })}`);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await bucket.drop();
  rmSync(workDir, { recursive: true, force: true });
}
