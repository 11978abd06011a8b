/** `/metrics` of the snapshot bus as a control plane uses it: what it published, and its connection. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PublishCounts } from '../snapshots/bus-publisher.js';

export interface PublishMetricsSource {
  counts: PublishCounts;
  lagging(): string[];
  onLag(listener: (ms: number) => void): void;
}

/** Registers the publish totals (read at scrape time) and returns what counts the connection's reconnects. */
export function registerPublishMetrics(registry: Registry, source: PublishMetricsSource): { reconnected(): void; connected(up: boolean): void } {
  new Counter({
    name: 'ensign_snapshot_published_total',
    help: 'Snapshots published to NATS, by kind (hydration: the whole namespace; delta: the flags changed since the hydration).',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ kind: 'hydration' }, source.counts.hydrations);
      this.inc({ kind: 'delta' }, source.counts.deltas);
    },
  });
  new Counter({
    name: 'ensign_snapshot_published_bytes_total',
    help: 'Bytes published to NATS (KV values and objects), by kind.',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ kind: 'hydration' }, source.counts.hydrationBytes);
      this.inc({ kind: 'delta' }, source.counts.deltaBytes);
    },
  });
  new Gauge({
    name: 'ensign_snapshot_lagging_namespaces',
    help: 'Namespaces whose latest publish to NATS failed (the reconcile loop retries them).',
    registers: [registry],
    collect() {
      this.set(source.lagging().length);
    },
  });
  const lag = new Histogram({
    name: 'ensign_snapshot_publish_lag_seconds',
    help: 'From a committed change to its namespace\'s version being in the NATS bucket (the oldest change of each publish).',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  source.onLag((ms) => lag.observe(ms / 1000));
  const reconnects = new Counter({ name: 'ensign_nats_reconnects_total', help: 'Times the NATS connection came back after it was lost.', registers: [registry] });
  const up = new Gauge({ name: 'ensign_nats_connected', help: '1 while the NATS connection is up.', registers: [registry] });
  return { reconnected: () => reconnects.inc(), connected: (isUp) => up.set(isUp ? 1 : 0) };
}
