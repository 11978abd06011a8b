/**
 * What the primary of `ensign evaluator --workers N` and its workers tell each other over the
 * cluster's IPC channel. Every message carries `ensign` (its kind), so prom-client's and Node's
 * own cluster messages are never mistaken for these.
 */
import type { Registry } from 'prom-client';

/** The environment variable naming a worker's slot (1…N); a replacement takes the slot of the one it replaces. */
export const WORKER_SLOT_ENV = 'ENSIGN_CLUSTER_WORKER_SLOT';

/** prom-client's `getMetricsAsJSON()` of one registry. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** Worker → primary. */
export type WorkerMessage =
  /** Every listener is up: the worker is answering. */
  | { ensign: 'ready'; address: string }
  /** A client scraped /metrics on this worker: the primary is to gather every worker's. */
  | { ensign: 'metrics-wanted'; id: number }
  /** This worker's metrics, for gathering `id`. */
  | { ensign: 'metrics-part'; id: number; metrics: MetricsJson };

/** Primary → worker. */
export type PrimaryMessage =
  /** Drain and exit, as on SIGTERM. */
  | { ensign: 'stop' }
  /** Send your metrics for gathering `id`. */
  | { ensign: 'metrics-part-wanted'; id: number }
  /** The summed metrics asked for by `metrics-wanted` `id` (or why there are none). */
  | { ensign: 'metrics'; id: number; body: string; contentType: string }
  | { ensign: 'metrics'; id: number; error: string };

const isMessage = (value: unknown): value is { ensign: string } =>
  typeof value === 'object' && value !== null && typeof (value as { ensign?: unknown }).ensign === 'string';

export const isWorkerMessage = (value: unknown): value is WorkerMessage => isMessage(value);
export const isPrimaryMessage = (value: unknown): value is PrimaryMessage => isMessage(value);
