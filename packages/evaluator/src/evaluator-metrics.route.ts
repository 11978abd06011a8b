/**
 * `GET /metrics` of a scaled-out evaluator, in Prometheus' text format. Every snapshot metric is
 * computed when scraped from the source's state, so evaluations do no metrics work at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { registerEvaluationMetrics } from './metrics/evaluation-metrics.js';
import type { EvaluationTally } from './metrics/evaluation-tally.js';
import { registerRequestMetrics, type RequestTally } from './metrics/request-tally.js';
import type { NatsSnapshotSource } from './nats-snapshot-source.js';
import type { StreamCounts } from './streams/snapshot-streams.js';
import { registerStreamMetrics } from './streams/stream-metrics.js';

/** The process's counts beside the source's state: evaluations (unless `metrics.enabled` is false) and requests. */
export interface EvaluatorTallies {
  evaluations?: EvaluationTally | undefined;
  requests?: RequestTally;
  /** The snapshot streams' counts. */
  streams?: StreamCounts | undefined;
}

/** What the metrics read of the source. */
export type MetricsSource = Pick<NatsSnapshotSource, 'ready' | 'namespaces' | 'usage' | 'counts'>;

/**
 * A registry with the process metrics and the evaluator's snapshot metrics over `source`. Each gauge
 * says how the workers of one `ensign evaluator --workers N` add up on its one `/metrics` (counters
 * are summed): ready and revisions as the least of them, ages and holdings (bounded per worker) as
 * the most.
 */
export function createEvaluatorRegistry(source: MetricsSource, now: () => number = Date.now, tallies: EvaluatorTallies = {}): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (tallies.evaluations !== undefined) registerEvaluationMetrics(registry, tallies.evaluations);
  if (tallies.requests !== undefined) registerRequestMetrics(registry, tallies.requests);
  if (tallies.streams !== undefined) registerStreamMetrics(registry, tallies.streams);
  const registers = [registry];

  new Gauge({
    name: 'ensign_evaluator_ready',
    help: '1 once the initial sync of the snapshot bucket is done and evaluations are answered, else 0.',
    aggregator: 'min',
    registers,
    collect() {
      this.set(source.ready() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_revision',
    help: 'Revision of each namespace held compiled.',
    aggregator: 'min',
    labelNames: ['namespace'],
    registers,
    collect() {
      this.reset();
      for (const [namespace, held] of source.namespaces()) this.set({ namespace }, held.revision);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_age_seconds',
    help: 'Seconds since each held namespace took its current revision.',
    aggregator: 'max',
    labelNames: ['namespace'],
    registers,
    collect() {
      this.reset();
      const at = now();
      for (const [namespace, held] of source.namespaces()) this.set({ namespace }, Math.max(0, at - held.receivedAt) / 1000);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_namespaces_held',
    help: 'Namespaces held compiled (bounded by evaluator.max_namespaces and evaluator.max_bytes).',
    aggregator: 'max',
    registers,
    collect() {
      this.set(source.usage().held);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_namespaces_known',
    help: 'Namespaces in the snapshot bucket, held or not; one not held is fetched on its first request.',
    aggregator: 'max',
    registers,
    collect() {
      this.set(source.usage().known);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_bytes_held',
    help: 'Approximate heap bytes of the namespaces held (documents and compiled forms).',
    aggregator: 'max',
    registers,
    collect() {
      this.set(source.usage().bytes);
    },
  });
  new Counter({
    name: 'ensign_snapshot_updates_total',
    help: 'Snapshots received, by outcome: applied, stale (not newer than the one announced: among them the bucket\'s copy of each delta already taken from the live subject), invalid (does not compile), deferred (namespace not held, revision remembered).',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, total] of Object.entries(source.counts.updates)) this.inc({ outcome }, total);
    },
  });
  new Counter({
    name: 'ensign_snapshot_fetches_total',
    help: 'Namespaces fetched from the bucket for a request naming one not held, by outcome: loaded, absent, failed.',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, total] of Object.entries(source.counts.fetches)) this.inc({ outcome }, total);
    },
  });
  return registry;
}

/** A node:http handler answering `GET /metrics` and calling `next()` for every other request. */
export function createEvaluatorMetricsHandler(
  source: MetricsSource,
  now: () => number = Date.now,
  tallies: EvaluatorTallies = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const registry = createEvaluatorRegistry(source, now, tallies);
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || req.method !== 'GET') {
      next();
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
      (err: unknown) => {
        const body = `metrics failed: ${(err as Error).message}\n`;
        res.writeHead(500, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
    );
  };
}
