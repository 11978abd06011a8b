export { createEvaluationHandler } from './evaluation-handler.js';
export type { EvaluationHandler, EvaluationHandlerOptions } from './evaluation-handler.js';
export { createEvaluationService } from './service/evaluation-service.js';
export type { EvaluationService, EvaluationServiceOptions } from './service/evaluation-service.js';
export { createHealthCheck } from './health.js';
export type { ReadinessCheck } from './health.js';
export { InProcessSnapshotSource } from './in-process-snapshot-source.js';
export type { OfrepOptions } from './routes/ofrep.routes.js';
export { gateFor } from './snapshot/server-version.js';
export type { SnapshotGate } from './snapshot/server-version.js';
export { ENSIGN_FORMAT } from './snapshot/snapshot-format.js';
export type { EnsignSnapshotDocument } from './snapshot/gated-snapshot.js';
export type { HeldSnapshot, SnapshotSource } from './snapshot-source.js';
export { DEFAULT_FETCH_TIMEOUT_MS, NatsSnapshotSource } from './nats-snapshot-source.js';
export type {
  HeldNamespaceStatus,
  NatsSnapshotSourceOptions,
  SnapshotReader,
  SnapshotSourceCounts,
  SnapshotSourceUsage,
} from './nats-snapshot-source.js';
export { createEvaluatorHealthHandler } from './evaluator-health.route.js';
export type { EvaluatorHealthBody } from './evaluator-health.route.js';
export { createEvaluatorMetricsHandler, createEvaluatorRegistry } from './evaluator-metrics.route.js';
export { EvaluationTally, LATENCY_BOUNDS_MS } from './metrics/evaluation-tally.js';
export type { EvaluationRecorder } from './metrics/evaluation-tally.js';
export { registerEvaluationMetrics } from './metrics/evaluation-metrics.js';
export { DEFAULT_MAX_COUNTS_PER_BATCH, DEFAULT_MAX_PENDING_BATCHES, DEFAULT_STOP_TIMEOUT_MS, UsageShipper } from './metrics/usage-shipper.js';
export type { UsageLogger, UsageShipperOptions } from './metrics/usage-shipper.js';
export { registerRequestMetrics, RequestTally } from './metrics/request-tally.js';
export type { RequestRecorder } from './metrics/request-tally.js';
export type { EvaluatorTallies, MetricsSource } from './evaluator-metrics.route.js';
export type { EvaluatorAuthOptions } from './http/request-credentials.js';
export type { LegacyBatchEvaluationResponse, LegacyEvaluationResponse } from './operations/legacy-responses.js';
export { registerStreamMetrics } from './streams/stream-metrics.js';
export type { SnapshotStreams, StreamCounts } from './streams/snapshot-streams.js';
