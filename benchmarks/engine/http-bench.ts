/**
 * HTTP evaluation throughput of `ensign server` next to the bare-Node ceiling, in one run:
 * (i) a bare node:http server answering a fixed JSON body, (ii) the real server seeded with the
 * benchmark's variant flag, each loaded from a separate autocannon process (POST
 * /evaluate/v1/variant, rotating entity ids). Run: `npm run bench:http` (writes
 * benchmarks/results/http.json). Tunables: BENCH_HTTP_SECONDS (10), BENCH_HTTP_CONNECTIONS (50),
 * BENCH_HTTP_WARMUP_SECONDS (2), BENCH_HTTP_SERVER_NODE_ARGS (extra node flags for the server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import type { Result } from 'autocannon';
import { forkListening, freePort, pin, runToCompletion, stop } from './child-processes.js';
import { writeResults } from './results-file.js';
import { checkAgainstEngine, seedVariantFlag } from './seed-ensign.js';

const SECONDS = Number(process.env['BENCH_HTTP_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_HTTP_CONNECTIONS'] ?? 50);
const WARMUP_SECONDS = Number(process.env['BENCH_HTTP_WARMUP_SECONDS'] ?? 2);
/** Extra node flags for the ensign server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const SERVER_NODE_ARGS = (process.env['BENCH_HTTP_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

/**
 * With two or more CPUs the server gets CPU 0 and the load generator CPU 1 (BENCH_HTTP_PIN=0 turns
 * this off), so each has a core of its own and the comparison is server against server.
 */
const PIN = process.env['BENCH_HTTP_PIN'] !== '0' && os.cpus().length >= 2;
const SERVER_CPU = PIN ? 0 : undefined;
const CLIENT_CPU = PIN ? 1 : undefined;

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const CLI_MAIN = here('../../../packages/cli/dist/src/main.js');

interface Summary {
  target: string;
  requestsPerSecond: number;
  totalRequests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyAvgMs: number;
  errors: number;
  non2xx: number;
}

async function load(target: string, base: string): Promise<Summary> {
  const client = here('./load-client.js');
  if (WARMUP_SECONDS > 0) await runToCompletion(client, [base, String(WARMUP_SECONDS), String(CONNECTIONS)], CLIENT_CPU);
  const r = JSON.parse(await runToCompletion(client, [base, String(SECONDS), String(CONNECTIONS)], CLIENT_CPU)) as Result;
  return {
    target,
    requestsPerSecond: Math.round(r.requests.total / r.duration),
    totalRequests: r.requests.total,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyAvgMs: r.latency.average,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

async function waitForHealth(base: string, child: { exitCode: number | null }, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`ensign server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('ensign server did not become healthy');
}

async function benchBare(): Promise<Summary> {
  const { child, port } = await forkListening(here('./bare-server.js'));
  pinned = pin(child.pid, SERVER_CPU) && pinned;
  try {
    return await load('bare node:http (fixed body)', `http://127.0.0.1:${port}`);
  } finally {
    await stop(child);
  }
}

async function benchEnsign(): Promise<Summary> {
  const dir = mkdtempSync(join(os.tmpdir(), 'ensign-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, CLI_MAIN, 'server'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ENSIGN_SERVER_HOST: '127.0.0.1',
      ENSIGN_SERVER_HTTP_PORT: String(port),
      ENSIGN_DB_URL: `file:${join(dir, 'bench.db')}`,
      ENSIGN_LOG_LEVEL: 'warn',
    },
  });
  pinned = pin(child.pid, SERVER_CPU) && pinned;
  try {
    await waitForHealth(base, child);
    await seedVariantFlag(base);
    await checkAgainstEngine(base);
    return await load('ensign server (/evaluate/v1/variant)', base);
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

let pinned = PIN;
const bare = await benchBare();
const ensign = await benchEnsign();
const ratio = ensign.requestsPerSecond / bare.requestsPerSecond;

const placement = pinned ? 'server on CPU 0, load generator on CPU 1' : 'processes not pinned';
console.log(`\n${SECONDS}s per target, ${CONNECTIONS} connections, pipelining 1, load from a separate process (${placement})\n`);
console.log(`${'target'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'non2xx'.padStart(7)}`);
for (const s of [bare, ensign]) {
  console.log(
    `${s.target.padEnd(40)} ${s.requestsPerSecond.toLocaleString('en-US').padStart(9)} ${String(s.latencyP50Ms).padStart(7)} ${String(s.latencyP99Ms).padStart(7)} ${String(s.errors).padStart(7)} ${String(s.non2xx).padStart(7)}`,
  );
}
console.log(`\nensign / bare: ${(ratio * 100).toFixed(1)}%`);
const loadAverage = os.loadavg()[0] ?? 0;
if (loadAverage > os.cpus().length) console.log(`(load average ${loadAverage.toFixed(1)}: other work was running)`);

const path = writeResults('http.json', {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cpus: os.cpus().length,
  seconds: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
  pipelining: 1,
  pinned,
  loadAverage: os.loadavg(),
  bare,
  ensign,
  ratio: Math.round(ratio * 1000) / 1000,
});
console.log(`written ${path}`);
if (ensign.errors > 0 || ensign.non2xx > 0) {
  console.error('ensign answered with errors or non-2xx statuses; the figures above are not valid');
  process.exitCode = 1;
}
