import Router from '@koa/router';
import { AccessPolicy } from '@ensign/auth';
import { DEFAULT_BODY_LIMIT_BYTES } from '@ensign/core';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { AUTH_PREFIX } from './auth/auth-surface.js';
import { authenticationMiddleware } from './auth/authentication.middleware.js';
import { type Operations, operations } from './auth/operation.middleware.js';
import type { OperationGuard } from './auth/operation-guard.js';
import { registerPermissionsRoutes } from './features/permissions/permissions.routes.js';
import { clearSessionOnUnauthenticated } from './auth/session-cookies.middleware.js';
import { registerAnalyticsRoutes } from './features/analytics/analytics.routes.js';
import { type AnalyticsOptions, DEFAULT_STALE_AFTER_MS } from './features/analytics/usage.repository.js';
import { registerUsageRoutes } from './features/analytics/usage.routes.js';
import { registerUsageIngestRoute } from './features/analytics/usage-ingest.routes.js';
import { type AppAuth, authRouter } from './features/auth/auth-router.js';
import { registerConstraintRoutes } from './features/constraints/constraint.routes.js';
import { registerDistributionRoutes } from './features/distributions/distribution.routes.js';
import { registerDocumentRoutes } from './features/documents/document.routes.js';
import { registerFlagRoutes } from './features/flags/flag.routes.js';
import { registerHistoryRoutes } from './features/history/history.routes.js';
import { registerNamespaceRoutes } from './features/namespaces/namespace.routes.js';
import { registerRolloutRoutes } from './features/rollouts/rollout.routes.js';
import { registerRuleRoutes } from './features/rules/rule.routes.js';
import { registerScheduleRoutes } from './features/schedules/schedule.routes.js';
import { registerSegmentRoutes } from './features/segments/segment.routes.js';
import { registerVariantRoutes } from './features/variants/variant.routes.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { type BuildInfo, registerInfoRoutes } from './meta/info.routes.js';
import { type StorageReport, storageHealth } from './meta/storage-report.js';
import type { AppRouter, AppState } from './http/app-state.js';
import { jsonBodyMiddleware } from './http/body.middleware.js';
import { emptyNamespaceSegment } from './http/empty-namespace.middleware.js';
import { errorsMiddleware } from './http/errors.middleware.js';
import { requestLogMiddleware } from './http/request-log.middleware.js';
import { tracingMiddleware } from './http/tracing.middleware.js';
import { type HttpRequestRecorder, requestMetricsMiddleware } from './http/request-metrics.middleware.js';
import { methodNotAllowed, notFoundUnder, stripTrailingSlash } from './http/routing.middleware.js';
import { registerChangeRequestRoutes } from './change-requests/change-request.routes.js';
import { type ChangeRequestDeps, ChangeRequestService } from './change-requests/change-request.service.js';
import { ManagementDispatcher } from './change-requests/management-dispatcher.js';
import { type PromotionReader, promotionChanges } from './change-requests/promotion.js';
import { protectedWrites } from './change-requests/protected-writes.js';
import { registerMetricsRoutes } from './metrics/metrics.routes.js';
import type { ManagementStore } from './store.js';
import { type ManagementServices, managementServices } from './management-services.js';
import type { UiAssets } from './ui/ui-assets.js';
import { uiMiddleware } from './ui/ui.middleware.js';

/** Where the management API is mounted. */
export const API_PREFIX = '/api/v1';
/** Where Flipt's analytics API is mounted. */
export const ANALYTICS_PREFIX = '/internal/v1/analytics';
/** Flipt's gateway owns every path under it; the evaluator serves `/internal/v1/evaluation`, this app the rest. */
const INTERNAL_PREFIX = '/internal/v1';

/** The methods the routers serve; any other (OPTIONS, PATCH, …) on a known path is a 501 like Flipt's. */
const METHODS = ['HEAD', 'GET', 'POST', 'PUT', 'DELETE'];

export interface AppDeps {
  store: ManagementStore;
  /** The use cases over `store`, when the caller shares them with gRPC; built here when not given. */
  services?: ManagementServices;
  logger: Logger;
  /** Largest accepted request body; 1 MiB when not set. */
  bodyLimitBytes?: number;
  /** Served at `/metrics` when given. */
  metrics?: Registry;
  /** Hears of every answered request, by method, route pattern and status (for `/metrics`). */
  requests?: HttpRequestRecorder;
  /** Authentication: `/auth/v1` and the checks on every API; everything is open without it. */
  auth?: AppAuth;
  /** The web UI, served at `/` when given. */
  ui?: UiAssets;
  /** Evaluation counts: `/internal/v1/analytics` and the `/api/v1` usage routes, when given. */
  analytics?: AnalyticsOptions;
  /** Where flags come from, for `/meta/info` and `/health`; writable database storage when not given. */
  storage?: StorageReport;
  /** Change requests (`/api/v1/namespaces/{ns}/change-requests`), served when given. */
  changeRequests?: ChangeRequestDeps['store'] & PromotionReader;
  /** The executable's version, commit and build date, for `/meta/info`. */
  build?: BuildInfo;
}

function apiRouter(store: ManagementStore, services: ManagementServices, bodyLimitBytes: number, analytics: AnalyticsOptions | undefined, op: Operations, guard: OperationGuard | undefined): AppRouter {
  const router: AppRouter = new Router<AppState>({ prefix: API_PREFIX, methods: METHODS, sensitive: true });
  // Router middleware runs only for requests that matched a route.
  router.use(...jsonBodyMiddleware(bodyLimitBytes));
  registerNamespaceRoutes(router, services.namespaces, op);
  registerFlagRoutes(router, services.flags, op);
  registerVariantRoutes(router, services.variants, op);
  registerSegmentRoutes(router, services.segments, op);
  registerConstraintRoutes(router, services.constraints, op);
  registerRuleRoutes(router, services.rules, op);
  registerDistributionRoutes(router, services.distributions, op);
  registerRolloutRoutes(router, services.rollouts, op);
  registerScheduleRoutes(router, services.schedules, op);
  registerHistoryRoutes(router, store.audit, op);
  // About the caller itself: no operation (a scoped token hears about its own namespace).
  registerPermissionsRoutes(router, store.namespaces, guard);
  if (analytics !== undefined) {
    const { usage, staleAfterMs = DEFAULT_STALE_AFTER_MS, now = () => new Date() } = analytics;
    registerUsageRoutes(router, { usage, namespaces: store.namespaces, flags: store.flags, staleAfterMs, now }, op);
  }
  return router;
}

/**
 * The document routes under `/api/v1` (export, import): a router of their own, as an import's body
 * is YAML or JSON text the management API's JSON-object parser would refuse.
 */
function documentsRouter(store: ManagementStore, bodyLimitBytes: number, op: Operations): AppRouter {
  const router: AppRouter = new Router<AppState>({ prefix: API_PREFIX, methods: METHODS, sensitive: true });
  registerDocumentRoutes(router, { documents: store.documents, bodyLimitBytes }, op);
  return router;
}

/** `/internal/v1/analytics`: authenticated as management routes, a scoped token held to the path's namespace by its operations. */
function analyticsRouter(analytics: AnalyticsOptions, op: Operations): AppRouter {
  const router: AppRouter = new Router<AppState>({ prefix: ANALYTICS_PREFIX, methods: METHODS, sensitive: true });
  registerAnalyticsRoutes(router, analytics.usage, op);
  return router;
}

/** `POST /internal/v1/usage`: evaluation counts sent by in-process evaluators, on the evaluation surface. */
function usageIngestRouter(analytics: AnalyticsOptions, policy: AccessPolicy, bodyLimitBytes: number): AppRouter {
  const router: AppRouter = new Router<AppState>({ prefix: INTERNAL_PREFIX, methods: METHODS, sensitive: true });
  router.use(...jsonBodyMiddleware(bodyLimitBytes));
  const { now = () => new Date() } = analytics;
  registerUsageIngestRoute(router, { record: (batch) => analytics.usage.record(batch), policy, now: () => now().getTime() });
  return router;
}

/**
 * The control plane's HTTP app: `/api/v1` management routes, `/health`, given evaluation counts
 * `/internal/v1/analytics`, the usage routes and `POST /internal/v1/usage`, given a registry
 * `/metrics`, given authentication `/auth/v1` with every API behind it, and given the UI's files
 * the UI at `/`.
 */
export function createApp(deps: AppDeps): Koa<AppState> {
  return createControlPlane(deps).app;
}

/** The HTTP app, and the use cases other transports and runners share with it. */
export interface ControlPlane {
  app: Koa<AppState>;
  /** Change requests, when served: their proposed calls run through this app's routes. */
  changeRequests?: ChangeRequestService;
}

/** `createApp`, also answering the change-request service (gRPC serves it; the scheduled-apply runner uses it). */
export function createControlPlane(deps: AppDeps): ControlPlane {
  const app = new Koa<AppState>();
  const allowed = { throw: true, methodNotAllowed, notImplemented: methodNotAllowed };

  const health: AppRouter = new Router<AppState>({ methods: METHODS, sensitive: true });
  const storage: StorageReport = deps.storage ?? { type: 'database', readOnly: false };
  const declarative = storage.status;
  const authorizationStatus = deps.auth?.authorizationStatus;
  registerHealthRoutes(health, deps.store, {
    ...(declarative === undefined ? {} : { storage: () => storageHealth(declarative()) }),
    ...(authorizationStatus === undefined ? {} : { authorization: authorizationStatus }),
  });
  if (deps.metrics !== undefined) registerMetricsRoutes(health, deps.metrics);
  const bodyLimitBytes = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const { auth } = deps;
  const policy = auth?.policy ?? AccessPolicy.OPEN;
  // Every management route names its operation; with authorization configured, each is checked before its handler.
  const checked = operations(policy, auth?.authorization);
  // Where change requests are served, a protected namespace refuses direct writes.
  const op = deps.changeRequests === undefined ? checked : protectedWrites(checked, { policies: deps.changeRequests.changePolicies, guard: auth?.authorization });
  const api = apiRouter(deps.store, deps.services ?? managementServices(deps.store), bodyLimitBytes, deps.analytics, op, auth?.authorization);
  let changeRequests: ChangeRequestService | undefined;
  if (deps.changeRequests !== undefined) {
    // Proposed changes run through the API's own routes, so they are decoded and checked as if called.
    const store = deps.changeRequests;
    changeRequests = new ChangeRequestService({ store, dispatcher: new ManagementDispatcher(api), promotion: (target, request) => promotionChanges(store, target, request) });
    registerChangeRequestRoutes(api, changeRequests, op);
  }

  app.use(tracingMiddleware());
  app.use(requestLogMiddleware(deps.logger));
  if (deps.requests !== undefined) app.use(requestMetricsMiddleware(deps.requests));
  app.use(errorsMiddleware());
  app.use(stripTrailingSlash());
  app.use(emptyNamespaceSegment(API_PREFIX));
  // The UI's pages and files are public: its login screen is what a caller without a credential needs.
  if (deps.ui !== undefined) app.use(uiMiddleware(deps.ui));
  app.use(notFoundUnder(auth === undefined ? [API_PREFIX, INTERNAL_PREFIX] : [API_PREFIX, INTERNAL_PREFIX, AUTH_PREFIX]));
  if (auth !== undefined) {
    app.use(clearSessionOnUnauthenticated(auth.session));
    app.use(authenticationMiddleware({ authenticator: auth.authenticator, policy: auth.policy, csrfKey: auth.session.csrfKey }));
  }
  app.use(health.routes());
  app.use(health.allowedMethods(allowed));
  const meta: AppRouter = new Router<AppState>({ methods: METHODS, sensitive: true });
  registerInfoRoutes(meta, { ...(deps.build === undefined ? {} : { build: deps.build }), authenticationRequired: policy.options.required, analyticsEnabled: deps.analytics !== undefined, storage });
  app.use(meta.routes());
  app.use(meta.allowedMethods(allowed));
  app.use(api.routes());
  app.use(api.allowedMethods(allowed));
  const documents = documentsRouter(deps.store, bodyLimitBytes, op);
  app.use(documents.routes());
  app.use(documents.allowedMethods(allowed));
  if (deps.analytics !== undefined) {
    const internal = analyticsRouter(deps.analytics, op);
    app.use(internal.routes());
    app.use(internal.allowedMethods(allowed));
    const ingest = usageIngestRouter(deps.analytics, policy, bodyLimitBytes);
    app.use(ingest.routes());
    app.use(ingest.allowedMethods(allowed));
  }
  if (auth !== undefined) {
    const authApi = authRouter(auth, bodyLimitBytes, op);
    app.use(authApi.routes());
    app.use(authApi.allowedMethods(allowed));
  }
  return changeRequests === undefined ? { app } : { app, changeRequests };
}
