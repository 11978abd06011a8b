/** `/metrics` of the write path: how long each committed write took, by resource and action. */
import { Histogram, type Registry } from 'prom-client';

/** A change as the listener needs it (the store's `CommittedChange` has it). */
export interface TimedChange {
  record: { resource: string; action: string };
  durationMs: number;
}

/** Registers `ensign_write_duration_seconds` and returns the commit listener that observes it. */
export function registerWriteMetrics(registry: Registry): (change: TimedChange) => void {
  const duration = new Histogram({
    name: 'ensign_write_duration_seconds',
    help: 'Time a committed write took, from the start of its transaction to its commit (retries included), by resource and action.',
    labelNames: ['resource', 'action'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (change) => duration.observe({ resource: change.record.resource, action: change.record.action }, change.durationMs / 1000);
}
