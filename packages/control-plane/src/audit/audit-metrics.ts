/** `/metrics` of the audit trail: what became of each event per sink, and how many wait. */
import { Counter, Gauge, type Registry } from 'prom-client';

/** What became of an event at a sink; `retried` counts failed attempts that were tried again. */
export type AuditOutcome = 'delivered' | 'retried' | 'failed' | 'dropped';

const OUTCOMES: readonly AuditOutcome[] = ['delivered', 'retried', 'failed', 'dropped'];

/** One sink's view of the metrics. */
export interface SinkMetrics {
  count(outcome: AuditOutcome, n?: number): void;
  queueLength(n: number): void;
}

/** The metric `name` of `registry`, registered on first use (a registry may serve several trails). */
function metricOf<M>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/** Metrics labelled `sink=<sink>` in `registry`; without a registry, nothing is recorded. */
export function sinkMetrics(registry: Registry | undefined, sink: string): SinkMetrics {
  if (registry === undefined) return { count: () => undefined, queueLength: () => undefined };
  const events = metricOf(
    registry,
    'ensign_audit_events_total',
    () => new Counter({ name: 'ensign_audit_events_total', help: 'Audit events by sink and outcome (delivered, retried attempts, failed after retries, dropped).', labelNames: ['sink', 'outcome'], registers: [registry] }),
  );
  const queue = metricOf(
    registry,
    'ensign_audit_queue_length',
    () => new Gauge({ name: 'ensign_audit_queue_length', help: 'Audit events waiting for delivery to a sink, the one being delivered included.', labelNames: ['sink'], registers: [registry] }),
  );
  // Shown as 0 from the start, so a dashboard tells "none yet" from "not reported".
  for (const outcome of OUTCOMES) events.inc({ sink, outcome }, 0);
  queue.set({ sink }, 0);
  return { count: (outcome, n = 1) => events.inc({ sink, outcome }, n), queueLength: (n) => queue.set({ sink }, n) };
}
