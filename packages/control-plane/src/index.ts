export { ANALYTICS_PREFIX, API_PREFIX, createApp, createControlPlane } from './app.js';
export type { AppDeps, ControlPlane } from './app.js';
export { createUiAssets } from './ui/ui-assets.js';
export type { UiAsset, UiAssets, UiFile } from './ui/ui-assets.js';
export type { AppState } from './http/app-state.js';
export type { HttpRequestRecorder } from './http/request-metrics.middleware.js';
export type { ManagementStore } from './store.js';
export { managementServices } from './management-services.js';
export type { ManagementServices } from './management-services.js';
export type { ConstraintRepository } from './features/constraints/constraint.repository.js';
export type { DistributionRepository } from './features/distributions/distribution.repository.js';
export type { FlagRepository } from './features/flags/flag.repository.js';
export type { NamespaceRepository } from './features/namespaces/namespace.repository.js';
export type { RolloutRepository } from './features/rollouts/rollout.repository.js';
export type { RuleRepository } from './features/rules/rule.repository.js';
export type { SegmentRepository } from './features/segments/segment.repository.js';
export type { HistoryRepository } from './features/history/history.repository.js';
export { HistoryRetention } from './features/history/history-retention.js';
export type { HistoryRetentionOptions, PrunableHistory } from './features/history/history-retention.js';
export type { VariantRepository } from './features/variants/variant.repository.js';
export { DEFAULT_STALE_AFTER_MS } from './features/analytics/usage.repository.js';
export type { AnalyticsOptions, UsageRepository } from './features/analytics/usage.repository.js';
export { AnalyticsRetention, DEFAULT_HOUR_RETENTION_MS, DEFAULT_MINUTE_RETENTION_MS } from './features/analytics/analytics-retention.js';
export type { AnalyticsRetentionOptions, PrunableUsage } from './features/analytics/analytics-retention.js';
export { buildSnapshotFlags, buildVersion } from './snapshots/snapshot-builder.js';
export { SnapshotPipeline } from './snapshots/snapshot-pipeline.js';
export type { PipelineBus, PipelineHolder, SnapshotPipelineOptions, SnapshotStateReader } from './snapshots/snapshot-pipeline.js';
export type { PublishCounts, PublishingBus } from './snapshots/bus-publisher.js';
export { SnapshotReconciler } from './snapshots/snapshot-reconciler.js';
export { RevisionPoll } from './snapshots/revision-poll.js';
export { StepRunner } from './schedules/step-runner.js';
export type { StepRunnerOptions, StepStore } from './schedules/step-runner.js';
export type { RevisionPollOptions } from './snapshots/revision-poll.js';
export type { ReconciledBus, ReconcileResult, SnapshotReconcilerOptions } from './snapshots/snapshot-reconciler.js';
export { createMetricsRegistry } from './metrics/metrics-registry.js';
export { registerWriteMetrics } from './metrics/write.metrics.js';
export { createAuditTrail, SIGNATURE_HEADER, toAuditEvent } from './audit/index.js';
export type { AuditEvent, AuditOptions, AuditTrail } from './audit/index.js';
export type { TimedChange } from './metrics/write.metrics.js';
export type { MetricsRegistry } from './metrics/metrics-registry.js';
export { withReadCache } from './cache/cached-store.js';
export { CacheInvalidator } from './cache/cache-invalidator.js';
export { openReadCache } from './cache/open-read-cache.js';
export type { OpenedReadCache, ReadCacheOptions } from './cache/open-read-cache.js';
export type { ReadCache } from './cache/read-cache.js';
export type { AppAuth } from './features/auth/auth-router.js';
export type { OperationGuard } from './auth/operation-guard.js';
export type { EnabledMethods, MethodInfo } from './features/auth/method-catalog.js';
export type { ServiceAccountVerifier } from './features/auth/login.routes.js';
export { AUTH_PREFIX } from './auth/auth-surface.js';
export { NamespaceService } from './features/namespaces/namespace.service.js';
export { FlagService } from './features/flags/flag.service.js';
export { VariantService } from './features/variants/variant.service.js';
export { SegmentService } from './features/segments/segment.service.js';
export { ConstraintService } from './features/constraints/constraint.service.js';
export { RuleService } from './features/rules/rule.service.js';
export { DistributionService } from './features/distributions/distribution.service.js';
export { RolloutService } from './features/rollouts/rollout.service.js';
export { listBody } from './http/list-body.js';
export type { ListBody } from './http/list-body.js';
export { AuthenticationService } from './features/auth/authentication.service.js';
export type { AuthenticationServiceOptions } from './features/auth/authentication.service.js';
export { authenticationJson } from './features/auth/authentication-json.js';
export type { AuthenticationJson } from './features/auth/authentication-json.js';
export { listMethods } from './features/auth/method-catalog.js';
export { decodeCreateToken, decodeListTokens, readTimestamp } from './features/auth/token.decode.js';
export { registerPublishMetrics } from './metrics/snapshot-publish.metrics.js';
export { registerAuthorizationMetrics } from './metrics/authorization.metrics.js';
export type { AuthorizationMetricsSource } from './metrics/authorization.metrics.js';
export {
  DeclarativeError,
  DeclarativeStorage,
  DocumentApplier,
  GitSource,
  LocalSource,
  READ_ONLY_MESSAGE,
  readOnlyError,
  readOnlyStore,
  registerDeclarativeMetrics,
} from './declarative/index.js';
export type { DeclarativeStatus, FeatureSource, GitAccess, GitSourceOptions, LocalSourceOptions, SyncOutcome } from './declarative/index.js';
export type { BuildInfo } from './meta/info.routes.js';
export type { StorageReport } from './meta/storage-report.js';
export type { ChangePolicies } from './change-requests/protected-writes.js';
export { ChangeRequestService, decodeApplyAt, decodeContent, decodeDraft, decodeStates, MAX_CHANGES } from './change-requests/change-request.service.js';
export type { ChangeRequestDeps, ChangeRequestDraft, ChangeRequestPreview, ChangeRequestView, PromotionPlanner } from './change-requests/change-request.service.js';
export { ScheduledApply } from './change-requests/scheduled-apply.js';
export type { DueRequest, ScheduledApplyOptions, ScheduledRequests } from './change-requests/scheduled-apply.js';
export { DueRunner } from './schedules/due-runner.js';
export type { DueRunnerOptions, DueWork } from './schedules/due-runner.js';
export { promotionChanges } from './change-requests/promotion.js';
export type { PromotionReader, PromotionRequest } from './change-requests/promotion.js';
export { previewImport } from './features/documents/import-preview.js';
export type { ImportPreview, KeyChanges } from './features/documents/import-preview.js';
