/**
 * `@ensign/openfeature-provider` in one run, against `ensign server` on this machine (SQLite, a
 * temporary directory):
 * 1. evaluations per second through OpenFeature's client over `EnsignProvider` (in process) and
 *    over `@openfeature/flipt-provider` (an HTTP call per evaluation), the bare engine and the
 *    provider without the SDK beside them, on the 50-flag benchmark namespace, in interleaved rounds;
 * 2. change → provider latency of writes made through the API, next to a bare stream reader;
 * 3. memory of a process holding a provider of a 10,000-flag namespace (a child of its own).
 * Run: `npm run bench:openfeature` (writes benchmarks/results/openfeature.json).
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { compileSnapshot, type SnapshotDocument } from '@ensign/engine';
import { EnsignProvider } from '@ensign/openfeature-provider';
import { scratchDir } from '@ensign/testkit';
import { OpenFeature } from '@openfeature/server-sdk';
import { FliptProvider } from '@openfeature/flipt-provider';
import { evaluationRequests } from '../engine/http-workload.js';
import { machineOf, writeResults } from '../engine/results-file.js';
import { seedBenchNamespace } from '../engine/seed-ensign.js';
import { startNode } from '../propagation/ensign-cluster.js';
import { installSafetyNets, onCleanup, runToExit } from '../propagation/children.js';
import { changeLatency, type WriteTiming } from './change-latency.js';
import { consumed, evaluationCases } from './evaluation-cases.js';
import { interleavedAsync } from './async-rounds.js';
import { importLargeNamespace, LARGE_NAMESPACE } from './large-namespace.js';

const num = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const ROUNDS = num('BENCH_OPENFEATURE_ROUNDS', 5);
const ROUND_MS = num('BENCH_OPENFEATURE_ROUND_MS', 1000);
const CONCURRENCY = num('BENCH_OPENFEATURE_CONCURRENCY', 32);
const WRITES = num('BENCH_OPENFEATURE_WRITES', 50);
const SPACING_MS = num('BENCH_OPENFEATURE_SPACING_MS', 200);
const LARGE_FLAGS = num('BENCH_OPENFEATURE_LARGE_FLAGS', 10_000);
const PROBE_EVALUATIONS = num('BENCH_OPENFEATURE_PROBE_EVALUATIONS', 100_000);
const TIMEOUT_SECONDS = num('BENCH_OPENFEATURE_TIMEOUT_SECONDS', 600);

const MB = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const round1 = (n: number): number => Math.round(n * 10) / 10;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function latencyFigures(timings: readonly WriteTiming[], pick: (t: WriteTiming) => number): { p50: number; p99: number; max: number } {
  const values = timings.map(pick).sort((a, b) => a - b);
  return { p50: round1(percentile(values, 50)), p99: round1(percentile(values, 99)), max: round1(values[values.length - 1] ?? NaN) };
}

/** Both providers and the document must agree before anything is timed, or the run measures a broken path. */
async function checkAnswers(ensign: ReturnType<typeof OpenFeature.getClient>, flipt: ReturnType<typeof OpenFeature.getClient>): Promise<void> {
  for (const r of evaluationRequests('variant', 100, 99)) {
    const context = { targetingKey: r.entityId, ...r.context };
    const [ours, theirs] = [await ensign.getStringDetails(r.flagKey, 'none', context), await flipt.getStringDetails(r.flagKey, 'none', context)];
    if (ours.errorCode !== undefined || theirs.errorCode !== undefined || ours.value !== theirs.value) {
      throw new Error(`${r.flagKey} for ${r.entityId}: EnsignProvider ${ours.value} (${ours.errorCode ?? 'ok'}), flipt-provider ${theirs.value} (${theirs.errorCode ?? 'ok'})`);
    }
  }
}

async function memoryProbe(url: string, flags: string[]): Promise<Record<string, unknown>> {
  const script = fileURLToPath(new URL('./memory-probe.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', script, url, LARGE_NAMESPACE, String(PROBE_EVALUATIONS), flags.join(',')], { maxBuffer: 1 << 20, timeout: 300_000 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}

async function main(): Promise<number> {
  const loadAverage = os.loadavg();
  const dir = scratchDir('ensign-bench-openfeature-');
  const env = { ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}`, ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '10s' };
  console.log(`importing the ${LARGE_FLAGS}-flag namespace…`);
  const largeVariantFlags = LARGE_FLAGS > 0 ? await importLargeNamespace(dir, env, LARGE_FLAGS) : [];
  const server = await startNode('ensign server', 'server', dir, env);
  const url = `http://127.0.0.1:${server.port}`;
  const calls = await seedBenchNamespace(server.client);
  console.log(`ensign server on ${url}; benchmark namespace seeded with ${calls} calls`);

  const provider = new EnsignProvider({ url, namespace: 'default' });
  await OpenFeature.setProviderAndWait('ensign', provider);
  await OpenFeature.setProviderAndWait('flipt', new FliptProvider('default', { url }));
  onCleanup(() => OpenFeature.close());
  const ensign = OpenFeature.getClient('ensign');
  const flipt = OpenFeature.getClient('flipt');
  await checkAnswers(ensign, flipt);
  const snapshot = (await server.client.send('GET', '/internal/v1/evaluation/snapshot/namespace/default?format=ensign')).text;
  const compiled = compileSnapshot(JSON.parse(snapshot) as SnapshotDocument, { hash: provider.hash ?? 'murmur3' });

  console.log(`evaluations: ${ROUNDS} rounds of ${ROUND_MS} ms per case…`);
  const cases = evaluationCases({ compiled, provider, ensign, flipt, concurrency: CONCURRENCY });
  const figures = await interleavedAsync(cases, ROUNDS, ROUND_MS);
  const rows = [...figures].map(([name, f]) => ({
    name,
    perWallSecond: Math.round(f.evaluations / f.wallSeconds),
    perCpuSecond: Math.round(f.evaluations / f.cpuSeconds),
    nsPerEvaluation: Math.round((f.cpuSeconds * 1e9) / f.evaluations),
    rounds: f.rounds,
  }));
  const row = (prefix: string) => rows.find((r) => r.name.startsWith(prefix))!;
  const oursVariant = row('OpenFeature client → EnsignProvider, variant');
  const fliptBest = Math.max(row('OpenFeature client → flipt-provider (HTTP), variant, 1').perWallSecond, row(`OpenFeature client → flipt-provider (HTTP), variant, ${CONCURRENCY}`).perWallSecond);
  const overhead = {
    variantProviderOverEngineNs: row('provider without the SDK, variant').nsPerEvaluation - row('engine, variant').nsPerEvaluation,
    booleanProviderOverEngineNs: row('provider without the SDK, boolean').nsPerEvaluation - row('engine, boolean').nsPerEvaluation,
    variantSdkOverProviderNs: oursVariant.nsPerEvaluation - row('provider without the SDK, variant').nsPerEvaluation,
    booleanSdkOverProviderNs: row('OpenFeature client → EnsignProvider, boolean').nsPerEvaluation - row('provider without the SDK, boolean').nsPerEvaluation,
  };

  console.log(`change → provider: ${WRITES} writes, ${SPACING_MS} ms apart…`);
  const timings = await changeLatency({ api: server.client, port: server.port, client: ensign, namespaceKey: 'default', flagKey: 'variant-01', writes: WRITES, warmup: 3, spacingMs: SPACING_MS });
  const latency = {
    commitToProvider: latencyFigures(timings, (t) => t.provider - t.committed),
    commitToStream: latencyFigures(timings, (t) => t.stream - t.committed),
    sentToProvider: latencyFigures(timings, (t) => t.provider - t.sent),
    sentToStream: latencyFigures(timings, (t) => t.stream - t.sent),
    streamToProvider: latencyFigures(timings, (t) => t.provider - t.stream),
  };

  let memory: Record<string, unknown> = {};
  if (LARGE_FLAGS > 0) {
    console.log(`memory: a provider of the ${LARGE_FLAGS}-flag namespace in a process of its own…`);
    const probe = (await memoryProbe(url, largeVariantFlags)) as { readyMs: number; before: NodeJS.MemoryUsage; held: NodeJS.MemoryUsage; loaded: NodeJS.MemoryUsage; peakRss: number };
    const large = await server.client.send('GET', `/internal/v1/evaluation/snapshot/namespace/${LARGE_NAMESPACE}?format=ensign`);
    memory = {
      flags: LARGE_FLAGS,
      snapshotBytes: Buffer.byteLength(large.text),
      readyMs: Math.round(probe.readyMs),
      rssBeforeMB: MB(probe.before.rss),
      rssHeldMB: MB(probe.held.rss),
      heapHeldMB: MB(probe.held.heapUsed),
      heapOfProviderMB: MB(probe.held.heapUsed - probe.before.heapUsed),
      rssAfterEvaluationsMB: MB(probe.loaded.rss),
      heapAfterEvaluationsMB: MB(probe.loaded.heapUsed),
      peakRssMB: MB(probe.peakRss),
      evaluations: PROBE_EVALUATIONS,
    };
  }

  const headline = {
    inProcessPerSecond: oursVariant.perWallSecond,
    fliptProviderPerSecond: fliptBest,
    ratio: round1(oursVariant.perWallSecond / fliptBest),
    nsPerEvaluationVariant: oursVariant.nsPerEvaluation,
    nsPerEvaluationBoolean: row('OpenFeature client → EnsignProvider, boolean').nsPerEvaluation,
    commitToProviderP99Ms: latency.commitToProvider.p99,
    commitToStreamP99Ms: latency.commitToStream.p99,
  };
  console.table(rows.map(({ name, perWallSecond, perCpuSecond, nsPerEvaluation }) => ({ case: name, 'eval/s (wall)': perWallSecond, 'eval/s (CPU)': perCpuSecond, 'ns/eval (CPU)': nsPerEvaluation })));
  console.log('provider overhead, ns per evaluation:', overhead);
  console.table(latency);
  if (LARGE_FLAGS > 0) console.log('memory:', memory);
  console.log(JSON.stringify(headline));
  // Closed while the server still runs, so the providers' last counts are taken.
  await OpenFeature.close();
  const path = writeResults('openfeature.json', {
    machine: machineOf(loadAverage),
    settings: { rounds: ROUNDS, roundMs: ROUND_MS, concurrency: CONCURRENCY, writes: WRITES, spacingMs: SPACING_MS, largeFlags: LARGE_FLAGS },
    headline,
    rows,
    overhead,
    latency,
    timings,
    memory,
    sink: consumed(),
  });
  console.log(`results: ${path}`);
  return 0;
}

const clearGuard = installSafetyNets(TIMEOUT_SECONDS, 'openfeature benchmark');
void runToExit('openfeature benchmark', main, clearGuard);
