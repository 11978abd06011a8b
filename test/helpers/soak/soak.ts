/**
 * The chaos soak: mixed load through deploy/'s layout while a fault is injected at every interval,
 * then the figures: evaluations attempted and failed at the load balancer, writes acknowledged and
 * found (in the database and on every evaluator), streams on the final digest and their
 * reconnections, and how long writes took to reach every evaluator around each fault.
 */
import { request } from 'node:http';
import { jsonClient } from '@ensign/testkit';
import { ok } from '../api.js';
import { FAULTS } from './faults.js';
import { FixedRateEvaluations } from './fixed-rate-evaluations.js';
import { Propagation } from './propagation.js';
import { SoakCluster } from './soak-cluster.js';
import { SoakWriter } from './soak-writer.js';
import { SseStreams } from './sse-streams.js';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface SoakOptions {
  durationMs: number;
  faultEveryMs: number;
  evaluators: number;
  streams: number;
  evaluationsPerSecond: number;
  writesPerSecond: number;
  /** Progress, one line at a time. */
  log: (line: string) => void;
}

export interface SoakReport {
  options: Omit<SoakOptions, 'log'>;
  /** Failed evaluations grouped by what was answered, with when (seconds into the load) the first and last were seen. */
  evaluations: { attempted: number; failed: number; failures: Array<{ why: string; count: number; fromSeconds: number; toSeconds: number }> };
  writes: { attempted: number; acknowledged: number; refused: Record<string, number>; missingInDatabase: string[]; missingOnEvaluators: Record<string, string[]> };
  streams: { count: number; onFinalDigest: number; reconnects: number };
  faults: Array<{ name: string; hit: string; atSeconds: number; convergenceMs: number }>;
  /** Per acknowledged write: ms until every evaluator running then served it (an evaluator back from a kill: from its return). */
  convergence: { p50: number; p99: number; max: number; writes: number };
  problems: string[];
}

const NS = 'soak';
const STEADY = 'steady';

/** The digest an evaluator holds for the namespace: the first event of its SSE stream, asked directly. */
function digestOf(baseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/client/v2/environments/default/namespaces/${NS}/stream`, { headers: { Accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const data = /^data: (.*)$/m.exec(buffer)?.[1];
        if (data === undefined || !buffer.includes('\n\n')) return;
        resolve((JSON.parse(data) as { etag: string }).etag);
        req.destroy();
      });
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`no digest from ${baseUrl} within 10 s`)));
    req.end();
  });
}

/** Waits (at most 30 s) until the evaluator at `baseUrl` answers 200 for the steady flag. */
async function servesSteady(baseUrl: string): Promise<void> {
  const client = jsonClient(baseUrl);
  const deadline = performance.now() + 30_000;
  while ((await client.post('/evaluate/v1/boolean', { namespaceKey: NS, flagKey: STEADY, entityId: 'soak' })).status !== 200) {
    if (performance.now() > deadline) throw new Error(`the evaluator at ${baseUrl} did not serve ${NS}/${STEADY} within 30 s`);
    await delay(50);
  }
}

/** Failures by reason, each with its count and the first and last time it was seen. */
function groupFailures(failed: ReadonlyArray<{ at: number; why: string }>, started: number): SoakReport['evaluations']['failures'] {
  const groups = new Map<string, { why: string; count: number; fromSeconds: number; toSeconds: number }>();
  for (const f of failed) {
    const at = Math.round((f.at - started) / 100) / 10;
    const group = groups.get(f.why) ?? { why: f.why, count: 0, fromSeconds: at, toSeconds: at };
    group.count++;
    group.toSeconds = at;
    groups.set(f.why, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count).slice(0, 10);
}

const percentile = (sorted: number[], p: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { log } = options;
  log(`starting the layout: PostgreSQL, 3 NATS servers, 2 control planes, ${options.evaluators} evaluators, nginx`);
  const cluster = await SoakCluster.start(options.evaluators);
  try {
    ok(await cluster.api.post('/api/v1/namespaces', { key: NS, name: 'Soak' }), 'namespace');
    ok(await cluster.api.post(`/api/v1/namespaces/${NS}/flags`, { key: STEADY, name: STEADY, type: 'BOOLEAN_FLAG_TYPE', enabled: true }), 'steady flag');

    // The load starts once every evaluator serves the flag it evaluates.
    for (const ev of cluster.evaluators) await servesSteady(ev.process!.baseUrl);
    const writer = new SoakWriter(cluster.api, NS, options.writesPerSecond);
    const propagation = new Propagation(NS, writer.acknowledged);
    for (const ev of cluster.evaluators) propagation.watch(ev.name, ev.process!.baseUrl);
    const evaluations = new FixedRateEvaluations(cluster.evaluation, { namespaceKey: NS, flagKey: STEADY }, options.evaluationsPerSecond);
    const streams = new SseStreams(cluster.evaluationUrl(`/client/v2/environments/default/namespaces/${NS}/stream`), options.streams);
    log(`load on: ${options.evaluationsPerSecond} evaluations/s, ${options.writesPerSecond} writes/s, ${options.streams} streams; a fault every ${options.faultEveryMs / 1000} s for ${options.durationMs / 1000} s`);

    const started = performance.now();
    const faults: Array<{ name: string; hit: string; at: number }> = [];
    for (let round = 0; (round + 1) * options.faultEveryMs < options.durationMs; round++) {
      await delay(started + (round + 1) * options.faultEveryMs - performance.now());
      const fault = FAULTS[round % FAULTS.length]!;
      const at = performance.now();
      const hit = await fault.inject(cluster, propagation, Math.floor(round / FAULTS.length));
      faults.push({ name: fault.name, hit, at });
      log(`${((at - started) / 1000).toFixed(0)} s: ${fault.name}: ${hit}, healed after ${((performance.now() - at) / 1000).toFixed(1)} s`);
    }
    await delay(started + options.durationMs - performance.now());

    await writer.stop();
    await evaluations.stop();
    log('load off; waiting for every evaluator and stream to hold the last write');
    await propagation.settled(30_000);
    // A write refused to its client may still have committed (an answer lost to a kill): the
    // evaluators agree once its revision has reached them all, so they are asked until they do.
    let digests = await Promise.all(cluster.evaluators.map((ev) => digestOf(ev.process!.baseUrl)));
    for (let i = 0; i < 60 && new Set(digests).size !== 1; i++) {
      await delay(500);
      digests = await Promise.all(cluster.evaluators.map((ev) => digestOf(ev.process!.baseUrl)));
    }
    const finalDigest = digests[0]!;
    for (let i = 0; i < 300 && streams.on(finalDigest) < streams.count; i++) await delay(100);
    await propagation.stop();

    const stored = new Set((await cluster.postgres.query<{ key: string }>('SELECT key FROM flags WHERE namespace_key = $1', [NS])).map((r) => r.key));
    const perWrite = new Map<string, number>();
    for (const lag of propagation.lags) perWrite.set(lag.key, Math.max(perWrite.get(lag.key) ?? 0, lag.ms));
    const sorted = [...perWrite.values()].sort((a, b) => a - b);
    const ackAt = new Map(writer.acknowledged.map((w) => [w.key, w.at]));
    const report: SoakReport = {
      options: { durationMs: options.durationMs, faultEveryMs: options.faultEveryMs, evaluators: options.evaluators, streams: options.streams, evaluationsPerSecond: options.evaluationsPerSecond, writesPerSecond: options.writesPerSecond },
      evaluations: { attempted: evaluations.attempted, failed: evaluations.failed.length, failures: groupFailures(evaluations.failed, started) },
      writes: {
        attempted: writer.attempted,
        acknowledged: writer.acknowledged.length,
        refused: Object.fromEntries([...writer.refused].map(([status, n]) => [status === 0 ? 'no answer' : `HTTP ${status}`, n])),
        missingInDatabase: writer.acknowledged.filter((w) => !stored.has(w.key)).map((w) => w.key),
        missingOnEvaluators: Object.fromEntries([...propagation.unseen()].filter(([, keys]) => keys.length > 0)),
      },
      streams: { count: streams.count, onFinalDigest: streams.on(finalDigest), reconnects: streams.reconnects },
      faults: faults.map((f, i) => {
        const until = faults[i + 1]?.at ?? Infinity;
        const window = [...perWrite].filter(([key]) => {
          const at = ackAt.get(key) ?? 0;
          return at >= f.at && at < until;
        });
        return { name: f.name, hit: f.hit, atSeconds: Math.round((f.at - started) / 1000), convergenceMs: Math.round(Math.max(0, ...window.map(([, ms]) => ms))) };
      }),
      convergence: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0), writes: sorted.length },
      problems: [],
    };
    streams.close();
    if (new Set(digests).size !== 1) {
      // What each holds, to tell a lagging evaluator (another revision) from one that holds the same state differently.
      const held = await Promise.all(cluster.evaluators.map(async (ev) => {
        const res = await jsonClient(ev.process!.baseUrl).get(`/internal/v1/evaluation/snapshot/namespace/${NS}?format=ensign`);
        const doc = res.body as { revision?: number; flags?: Array<{ key: string }> };
        return `${ev.name}: digest ${digests[cluster.evaluators.indexOf(ev)]}, revision ${doc.revision}, ${doc.flags?.length} flags, ETag ${res.headers.get('etag')}`;
      }));
      report.problems.push(`the evaluators hold different digests at the end: ${held.join('; ')}`);
    }
    if (report.evaluations.failed > 0) report.problems.push(`${report.evaluations.failed} evaluations failed at the load balancer`);
    if (report.writes.missingInDatabase.length > 0) report.problems.push(`acknowledged writes missing in the database: ${report.writes.missingInDatabase.join(', ')}`);
    for (const [name, keys] of Object.entries(report.writes.missingOnEvaluators)) report.problems.push(`${name} does not serve ${keys.length} acknowledged writes: ${keys.slice(0, 10).join(', ')}`);
    if (report.streams.onFinalDigest < report.streams.count) report.problems.push(`${report.streams.count - report.streams.onFinalDigest} of ${report.streams.count} streams are not on the final digest`);
    if (report.convergence.p99 > 5_000) report.problems.push(`convergence p99 ${report.convergence.p99} ms is over 5 s`);
    return report;
  } finally {
    await cluster.stop();
  }
}

/** The report as Markdown, for the terminal and benchmarks/README.md. */
export function formatSoakReport(r: SoakReport): string {
  const o = r.options;
  return [
    `Soak of ${o.durationMs / 1000} s: a fault every ${o.faultEveryMs / 1000} s, ${o.evaluationsPerSecond} evaluations/s, ${o.writesPerSecond} writes/s, ${o.streams} streams, ${o.evaluators} evaluators`,
    '',
    '| figure | value |',
    '|---|---:|',
    `| evaluations attempted / failed at the load balancer | ${r.evaluations.attempted} / ${r.evaluations.failed} |`,
    `| writes attempted / acknowledged | ${r.writes.attempted} / ${r.writes.acknowledged} |`,
    `| writes refused (not acknowledged) | ${Object.entries(r.writes.refused).map(([why, n]) => `${why}: ${n}`).join(', ') || 'none'} |`,
    `| acknowledged writes missing in the database / on an evaluator | ${r.writes.missingInDatabase.length} / ${Object.values(r.writes.missingOnEvaluators).reduce((n, keys) => n + keys.length, 0)} |`,
    `| streams on the final digest / open | ${r.streams.onFinalDigest} / ${r.streams.count} (${r.streams.reconnects} reconnections) |`,
    `| convergence of a write to every evaluator, p50 / p99 / max | ${r.convergence.p50} / ${r.convergence.p99} / ${r.convergence.max} ms (${r.convergence.writes} writes) |`,
    '',
    '| at | fault | hit | slowest write to reach every evaluator until the next fault |',
    '|---:|---|---|---:|',
    ...r.faults.map((f) => `| ${f.atSeconds} s | ${f.name} | ${f.hit} | ${f.convergenceMs} ms |`),
    '',
    ...(r.evaluations.failures.length === 0 ? [] : ['Failed evaluations:', ...r.evaluations.failures.map((f) => `- ${f.count} × ${f.why} (${f.fromSeconds}–${f.toSeconds} s)`), '']),
    r.problems.length === 0 ? 'Goals met: no failed evaluation, no lost write, every stream on the final digest, convergence p99 ≤ 5 s.' : `Problems:\n${r.problems.map((p) => `- ${p}`).join('\n')}`,
  ].join('\n');
}
