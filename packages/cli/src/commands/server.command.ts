/** `ensign server`: migrate, load every namespace, serve the API and evaluation, shut down gracefully on a signal. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Caller, currentActor, PolicyFileError } from '@ensign/auth';
import { type DigestBus, openDigestBus, type SnapshotBus } from '@ensign/bus';
import { AnalyticsRetention, type AppAuth, type AuditTrail, createControlPlane, createMetricsRegistry, type DeclarativeStorage, HistoryRetention, readOnlyStore, registerWriteMetrics, type OpenedReadCache, managementServices, registerAuthorizationMetrics, registerPublishMetrics, RevisionPoll, ScheduledApply, SnapshotPipeline, StepRunner, SnapshotReconciler, withReadCache } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource, registerStreamMetrics, type SnapshotStreams } from '@ensign/evaluator';
import { evaluationBindings, type RunningGrpcServer } from '@ensign/grpc/evaluation';
import { authBindings, changeRequestBinding, flagTimingBinding, fliptBinding } from '@ensign/grpc/management';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import { openAuditTrail } from '../audit-trail.js';
import { countingOf } from '../counting.js';
import { createServerAuthentication, type ServerAuthentication } from '../authentication.js';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { isReadOnly, startDeclarativeStorage } from '../declarative-storage.js';
import type { EmbeddedResources } from '../embedded.js';
import { grpcAuth, startGrpcListener } from '../grpc-listener.js';
import { listen, type RunningServer } from '../http-server.js';
import { openConfiguredReadCache } from '../read-cache.js';
import { openConfiguredBus, within } from '../snapshot-bus.js';
import { configuredTls } from '../tls-files.js';
import { buildInfo } from '../version.js';
import { loadUi } from '../ui-files.js';
import { openConfiguredUsageBus, startUsageShipper, type UsageBus, type UsageShipper } from '../usage-shipping.js';

/** How long shutdown waits for snapshots still being published to NATS. */
const BUS_DRAIN_MS = 5000;
/** How often steps set through other servers are looked for when `db.poll_interval` is 0. */
const STEP_POLL_MS = 1000;

/**
 * One request listener for both halves: the evaluator takes its routes, and hands every other
 * request to the control plane.
 */
function composeHandlers(
  evaluate: (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
  manage: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => evaluate(req, res, () => manage(req, res));
}

/**
 * Flipt's check of the client-side snapshot under authorization: the caller must read the
 * namespace's flags and segments. Evaluation callers are resolved from the live digests, which
 * carry no metadata, so a token's record is read once more here; a route served without
 * authentication (`exclude.evaluation`) is not authorized either, as in Flipt.
 */
function snapshotAuthorization(app: AppAuth, evaluationExcluded: boolean): ((caller: Caller | undefined, namespaceKey: string) => Promise<void>) | undefined {
  const { authorization, authenticator } = app;
  if (authorization === undefined || evaluationExcluded) return undefined;
  return async (caller, namespaceKey) => {
    const token = caller?.clientToken;
    const full = caller?.authentication === undefined && token !== undefined ? await authenticator.authenticate({ kind: 'token', token, via: caller?.via === 'cookie' ? 'cookie' : 'bearer' }) : caller;
    await authorization.check(full, { name: 'EvaluationSnapshotNamespace', namespace: namespaceKey === '' ? 'default' : namespaceKey });
  };
}

/** Runs the server until `stopSignal` resolves (with the signal's name); resolves the exit code. */
export async function serverCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, embedded: EmbeddedResources = {}): Promise<number> {
  let store: SqlStore | undefined;
  let pipeline: SnapshotPipeline | undefined;
  let bus: SnapshotBus | undefined;
  let reconciler: SnapshotReconciler | undefined;
  let poll: RevisionPoll | undefined;
  let steps: StepRunner | undefined;
  let scheduledApply: ScheduledApply | undefined;
  let readCache: OpenedReadCache | undefined;
  let digestBus: DigestBus | undefined;
  let authentication: ServerAuthentication | undefined;
  let server: RunningServer;
  let grpc: RunningGrpcServer | undefined;
  let retention: HistoryRetention | undefined;
  let audit: AuditTrail | undefined;
  let usageBus: UsageBus | undefined;
  let analyticsRetention: AnalyticsRetention | undefined;
  let shipper: UsageShipper | undefined;
  let declarative: DeclarativeStorage | undefined;
  /** Stores what this process counted since the last flush (bounded), then stops taking the evaluators' batches. */
  const closeUsage = async (): Promise<void> => {
    await shipper?.stop();
    await usageBus?.close();
  };
  let streams: SnapshotStreams | undefined;
  /** Stops following the database and publishing to NATS: the revision poll, the reconcile loop, the follower, then what is queued (bounded), then the connection. */
  const closeBus = async (): Promise<void> => {
    await scheduledApply?.stop();
    await steps?.stop();
    await poll?.stop();
    await reconciler?.stop();
    await pipeline?.stop();
    if (pipeline !== undefined && bus !== undefined && !(await within(pipeline.settled(), BUS_DRAIN_MS))) logger.warn('snapshots still unpublished at shutdown; the next reconcile publishes them');
    await bus?.close();
  };
  /** Stops the authentication jobs and the digest set's NATS connection. */
  const closeAuthentication = async (): Promise<void> => {
    await authentication?.close();
    await digestBus?.close();
  };
  try {
    // An unreadable certificate or key fails the start, before the database is touched.
    const tls = configuredTls(config.server);
    store = await openConfiguredStore(config, { actor: currentActor, embedded });
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    else logger.info('database schema is up to date');
    const metrics = createMetricsRegistry();
    store.onCommit(registerWriteMetrics(metrics));
    // Audit sinks hear every committed change; recording is synchronous and never waits on a sink.
    audit = openAuditTrail(config, logger, metrics);
    const trail = audit;
    if (trail !== undefined) {
      const sink = trail;
      // An applied change request commits several records at once: each goes to the sinks.
      store.onCommit((change) => {
        for (const record of change.batch ?? [change.record]) sink.record(record);
      });
    }
    // Management reads come from the cache; each committed write invalidates what it changed, here and on the other control planes.
    readCache = openConfiguredReadCache(config, logger, metrics);
    if (readCache !== undefined) store.onCommit(readCache.invalidator.notify);

    // Every committed write updates its namespace's version here (and, scaled out, goes to the NATS bucket as a delta).
    const source = new InProcessSnapshotSource();
    bus = openConfiguredBus(config, logger, 'ensign-server');
    const compile = { hash: config.evaluation.hash };
    pipeline = new SnapshotPipeline({ store, holder: source, compile, logger, compactAfterMs: config.nats.compact_interval, ...(bus === undefined ? {} : { bus }) });
    store.onCommit(pipeline.onCommit);
    await pipeline.loadAll();
    logger.info({ hash: config.evaluation.hash }, 'evaluation snapshots loaded');
    if (bus !== undefined && pipeline.publisher !== undefined) {
      const running = pipeline;
      const connection = registerPublishMetrics(metrics, running.publisher as NonNullable<SnapshotPipeline['publisher']>);
      reconciler = new SnapshotReconciler({ store, bus, republish: (key, revision) => running.republish(key, revision), intervalMs: config.nats.reconcile_interval, logger });
      const healing = reconciler;
      // Back from an outage: what was published while it lasted is caught up at once, not at the next interval.
      let wasDown = false;
      connection.connected(bus.status() === 'connected');
      bus.onStatus((status) => {
        connection.connected(status === 'connected');
        if (status !== 'connected') wasDown = true;
        else if (wasDown) {
          wasDown = false;
          connection.reconnected();
          healing.soon();
        }
      });
      reconciler.start();
      // Writes through other control planes on the same database reach this one's evaluations through the bucket.
      await pipeline.start();
      logger.info({ bucket: config.nats.bucket, reconcileIntervalMs: config.nats.reconcile_interval, compactIntervalMs: config.nats.compact_interval }, 'publishing snapshots to NATS');
    }
    // Writes through other servers on the same database (or `ensign import`) are served within one poll, bus or no bus.
    if (config.db.poll_interval > 0) {
      const invalidator = readCache?.invalidator;
      poll = new RevisionPoll({ store, pipeline, intervalMs: config.db.poll_interval, logger, ...(invalidator === undefined ? {} : { onStoredChange: invalidator.notifyStored }) });
      poll.start();
    }
    // Schedules, window edges and ramp steps are taken on time (missed ones now, in order), recorded and published.
    steps = new StepRunner({ steps: store.schedules, logger, pollMs: config.db.poll_interval > 0 ? config.db.poll_interval : STEP_POLL_MS });
    const runner = steps;
    store.onCommit(({ record }) => {
      if (record.resource === 'schedule' || record.resource === 'rule' || record.resource === 'rollout' || record.action === 'imported') runner.wake();
    });
    await steps.start();
    // Local or git storage: the feature files are written into the database (start-up fails when
    // they cannot be), then followed; each change goes through the pipeline like any write.
    declarative = await startDeclarativeStorage(config, store, logger, metrics);

    // Authentication: the first token, the live digest set (published to NATS when scaled out), the cleanup job.
    if (config.nats.url !== '') digestBus = openDigestBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name: 'ensign-server-auth' });
    authentication = createServerAuthentication({ config, store, logger, ...(digestBus === undefined ? {} : { bus: digestBus }), ...(trail === undefined ? {} : { audit: trail }) });
    await authentication.start();
    if (authentication.authorizationMetrics !== undefined) registerAuthorizationMetrics(metrics, authentication.authorizationMetrics);
    logger.info({ required: config.authentication.required }, 'authentication ready');

    retention = new HistoryRetention({ history: store.audit, retentionMs: config.audit.retention, logger });
    retention.start();
    // Evaluation counts: this process's go straight to the database; scaled out, the evaluators' arrive over NATS.
    const usage = store.usage;
    usageBus = openConfiguredUsageBus(config, logger, 'ensign-server-usage');
    usageBus?.serveUsage((batch) => usage.record(batch));
    // Pruned even with analytics off, so counts stored before it was turned off do not stay forever.
    analyticsRetention = new AnalyticsRetention({ usage, logger, minuteRetentionMs: config.analytics.retention, hourRetentionMs: config.analytics.usage_retention });
    analyticsRetention.start();

    const readable = readCache === undefined ? store : withReadCache(store, readCache.cache);
    // Read-only (local and git storage, or storage.read_only): every management write is refused after its validation, as in Flipt.
    const readOnly = isReadOnly(config);
    const managed = readOnly ? readOnlyStore(readable) : readable;
    const following = declarative;
    const storage = { type: config.storage.type, readOnly, ...(following === undefined ? {} : { status: () => following.status() }) };
    const ui = config.ui.enabled ? loadUi(logger, embedded.ui) : undefined;
    // Evaluations, HTTP requests (evaluation and management routes alike) and gRPC calls are each
    // counted in one tally for every transport, and read when /metrics is scraped (evaluations also by the usage shipper).
    const counting = countingOf(config, metrics);
    const { recorder, requests } = counting;
    shipper = startUsageShipper(config, logger, counting, (batch) => usage.record(batch), 'server');
    // With analytics off nothing is counted, so the analytics and usage routes are not served.
    const analytics = config.analytics.enabled ? { analytics: { usage, staleAfterMs: config.analytics.stale_after } } : {};
    // One set of use cases for HTTP and gRPC.
    const services = managementServices(managed);
    const { app, changeRequests } = createControlPlane({ store: managed, services, logger, bodyLimitBytes: config.server.body_limit, metrics, ...(requests === undefined ? {} : { requests }), auth: authentication.app, ...(ui === undefined ? {} : { ui }), ...analytics, storage, changeRequests: store, build: buildInfo() });
    // Change requests scheduled to apply are applied at their time (missed ones now), as the scheduler.
    if (changeRequests !== undefined) {
      scheduledApply = new ScheduledApply({ requests: store.changeRequests, service: changeRequests, logger, pollMs: config.db.poll_interval > 0 ? config.db.poll_interval : STEP_POLL_MS });
      await scheduledApply.start();
    }
    const authorizeSnapshot = snapshotAuthorization(authentication.app, config.authentication.exclude.evaluation);
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit, auth: authentication.evaluator, hash: config.evaluation.hash, ...counting, ...(authorizeSnapshot === undefined ? {} : { authorizeSnapshot }) });
    streams = evaluate.streams;
    if (streams !== undefined) registerStreamMetrics(metrics, streams.counts);
    // gRPC first: once /health answers, every port of the instance is served.
    grpc = await startGrpcListener({
      config,
      logger,
      bindings: [fliptBinding({ services, source, ...(authentication.app.authorization === undefined ? {} : { authorization: authentication.app.authorization }) }), flagTimingBinding({ services }), ...(changeRequests === undefined ? [] : [changeRequestBinding({ changeRequests, logger })]), ...evaluationBindings({ source, ...(recorder === undefined ? {} : { recorder }) }), ...authBindings({ auth: authentication.app })],
      auth: { ...grpcAuth(authentication.evaluator, authentication.app.authenticator), ...(authentication.app.authorization === undefined ? {} : { authorization: authentication.app.authorization }), protection: store.changePolicies },
      readiness: managed,
      tls,
      ...(requests === undefined ? {} : { calls: requests }),
    });
    server = await listen(composeHandlers(evaluate, app.callback()), { host: config.server.host, port: config.server.http_port, ...(tls === undefined ? {} : { tls }) });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await grpc?.shutdown(0).catch(() => undefined);
    await declarative?.stop().catch(() => undefined);
    await retention?.stop().catch(() => undefined);
    await analyticsRetention?.stop().catch(() => undefined);
    await closeUsage().catch(() => undefined);
    await audit?.close(0).catch(() => undefined);
    await closeAuthentication().catch(() => undefined);
    await closeBus().catch(() => undefined);
    await readCache?.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    // An authorization policy or data file that does not load is a configuration error.
    return err instanceof PolicyFileError ? 2 : 1;
  }
  logger.info({ address: server.address }, 'listening');

  const signal = await stopSignal;
  logger.info({ signal, timeoutMs: config.server.shutdown_timeout }, 'shutting down');
  // Streams never end by themselves: their clients reconnect to another instance.
  streams?.closeAll();
  const [inTime, grpcInTime] = await Promise.all([server.shutdown(config.server.shutdown_timeout), grpc.shutdown(config.server.shutdown_timeout)]);
  if (!inTime) logger.warn('shutdown timeout reached; remaining connections were closed');
  if (!grpcInTime) logger.warn('shutdown timeout reached; remaining gRPC calls were cancelled');
  try {
    // No more files are applied once the servers are down.
    await declarative?.stop();
    await readCache?.invalidator.settled();
    await readCache?.close();
    await retention?.stop();
    await analyticsRetention?.stop();
    await closeUsage();
    // What the sinks still hold is delivered, within the shutdown timeout.
    await audit?.close(config.server.shutdown_timeout);
    await closeAuthentication();
    await closeBus();
    await store.close();
  } catch (err) {
    logger.error({ err }, 'closing the database failed');
    return 1;
  }
  logger.info('stopped');
  return 0;
}
