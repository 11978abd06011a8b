/** `ensign server`: migrate, load every namespace, serve the API and evaluation, shut down gracefully on a signal. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Caller, currentActor, PolicyFileError } from '@ensign/auth';
import { openDigestBus } from '@ensign/bus';
import { AnalyticsRetention, type AppAuth, createControlPlane, createMetricsRegistry, HistoryRetention, readOnlyStore, registerWriteMetrics, managementServices, registerAuthorizationMetrics, registerPublishMetrics, RevisionPoll, ScheduledApply, SnapshotPipeline, StepRunner, SnapshotReconciler, withReadCache } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource, registerStreamMetrics } from '@ensign/evaluator';
import { evaluationBindings } from '@ensign/grpc/evaluation';
import { authBindings, changeRequestBinding, flagTimingBinding, fliptBinding } from '@ensign/grpc/management';
import type { Logger } from 'pino';
import { openAuditTrail } from '../audit-trail.js';
import { countingOf } from '../counting.js';
import { createServerAuthentication } from '../authentication.js';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { isReadOnly, startDeclarativeStorage } from '../declarative-storage.js';
import type { EmbeddedResources } from '../embedded.js';
import { grpcAuth, startGrpcListener } from '../grpc-listener.js';
import { listen } from '../http-server.js';
import { Lifecycle, type LifecycleHooks, stopForSignal, unwindFailedStart } from '../lifecycle.js';
import { LISTENERS, stopGrpc, stopHttp } from '../listener-stops.js';
import { openConfiguredReadCache } from '../read-cache.js';
import { openConfiguredBus, within } from '../snapshot-bus.js';
import { configuredTls } from '../tls-files.js';
import { buildInfo } from '../version.js';
import { loadUi } from '../ui-files.js';
import { openConfiguredUsageBus, startUsageShipper } from '../usage-shipping.js';

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

/**
 * Runs the server until `stopSignal` resolves (with the signal's name); resolves the exit code.
 * `hooks` wrap each component's start and stop (tests fail each start in turn).
 */
export async function serverCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, embedded: EmbeddedResources = {}, hooks: LifecycleHooks = {}): Promise<number> {
  // Declared in start order; the stack stops them in reverse, after a failed start and on a signal alike.
  const stack = new Lifecycle(hooks);
  let address: string;
  try {
    // An unreadable certificate or key fails the start, before the database is touched.
    const tls = configuredTls(config.server);
    const store = await stack.start('database', async (onStop) => {
      const opened = await openConfiguredStore(config, { actor: currentActor, embedded });
      onStop(() => opened.close());
      return opened;
    });
    await stack.start('migrations', async () => {
      const applied = await store.migrate();
      if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
      else logger.info('database schema is up to date');
    });
    const metrics = createMetricsRegistry();
    store.onCommit(registerWriteMetrics(metrics));
    // Audit sinks hear every committed change; recording is synchronous and never waits on a sink.
    const trail = await stack.start('audit trail', (onStop) => {
      const opened = openAuditTrail(config, logger, metrics);
      // What the sinks still hold is delivered, within the shutdown timeout.
      if (opened !== undefined) onStop((ms) => opened.close(ms));
      return opened;
    });
    if (trail !== undefined) {
      // An applied change request commits several records at once: each goes to the sinks.
      store.onCommit((change) => {
        for (const record of change.batch ?? [change.record]) trail.record(record);
      });
    }
    // Management reads come from the cache; each committed write invalidates what it changed, here and on the other control planes.
    const readCache = await stack.start('read cache', (onStop) => {
      const opened = openConfiguredReadCache(config, logger, metrics);
      if (opened !== undefined)
        onStop(async () => {
          await opened.invalidator.settled();
          await opened.close();
        });
      return opened;
    });
    if (readCache !== undefined) store.onCommit(readCache.invalidator.notify);

    // Every committed write updates its namespace's version here (and, scaled out, goes to the NATS bucket as a delta).
    const source = new InProcessSnapshotSource();
    const bus = await stack.start('snapshot bus', (onStop) => {
      const opened = openConfiguredBus(config, logger, 'ensign-server');
      if (opened !== undefined) onStop(() => opened.close());
      return opened;
    });
    const pipeline = await stack.start('snapshots', async (onStop) => {
      const compile = { hash: config.evaluation.hash };
      const loading = new SnapshotPipeline({ store, holder: source, compile, logger, compactAfterMs: config.nats.compact_interval, ...(bus === undefined ? {} : { bus }) });
      // Stopped once nothing else writes: the bucket is no longer followed, and what is still queued for NATS is published (bounded).
      onStop(async () => {
        await loading.stop();
        if (bus !== undefined && !(await within(loading.settled(), BUS_DRAIN_MS))) logger.warn('snapshots still unpublished at shutdown; the next reconcile publishes them');
      });
      store.onCommit(loading.onCommit);
      await loading.loadAll();
      logger.info({ hash: config.evaluation.hash }, 'evaluation snapshots loaded');
      return loading;
    });
    if (bus !== undefined && pipeline.publisher !== undefined) {
      const publisher = pipeline.publisher;
      await stack.start('snapshot reconciler', (onStop) => {
        const connection = registerPublishMetrics(metrics, publisher);
        const reconciler = new SnapshotReconciler({ store, bus, republish: (key, revision) => pipeline.republish(key, revision), intervalMs: config.nats.reconcile_interval, logger });
        onStop(() => reconciler.stop());
        // Back from an outage: what was published while it lasted is caught up at once, not at the next interval.
        let wasDown = false;
        connection.connected(bus.status() === 'connected');
        bus.onStatus((status) => {
          connection.connected(status === 'connected');
          if (status !== 'connected') wasDown = true;
          else if (wasDown) {
            wasDown = false;
            connection.reconnected();
            reconciler.soon();
          }
        });
        reconciler.start();
      });
      // Writes through other control planes on the same database reach this one's evaluations
      // through the bucket. Stopped with the snapshots, after the reconciler.
      await stack.start('snapshot follower', async () => {
        await pipeline.start();
        logger.info({ bucket: config.nats.bucket, reconcileIntervalMs: config.nats.reconcile_interval, compactIntervalMs: config.nats.compact_interval }, 'publishing snapshots to NATS');
      });
    }
    // Writes through other servers on the same database (or `ensign import`) are served within one poll, bus or no bus.
    if (config.db.poll_interval > 0) {
      await stack.start('revision poll', (onStop) => {
        const invalidator = readCache?.invalidator;
        const poll = new RevisionPoll({ store, pipeline, intervalMs: config.db.poll_interval, logger, ...(invalidator === undefined ? {} : { onStoredChange: invalidator.notifyStored }) });
        onStop(() => poll.stop());
        poll.start();
      });
    }
    // Schedules, window edges and ramp steps are taken on time (missed ones now, in order), recorded and published.
    await stack.start('flag steps', async (onStop) => {
      const steps = new StepRunner({ steps: store.schedules, logger, pollMs: config.db.poll_interval > 0 ? config.db.poll_interval : STEP_POLL_MS });
      onStop(() => steps.stop());
      store.onCommit(({ record }) => {
        if (record.resource === 'schedule' || record.resource === 'rule' || record.resource === 'rollout' || record.action === 'imported') steps.wake();
      });
      await steps.start();
    });
    // Local or git storage: the feature files are written into the database (start-up fails when
    // they cannot be), then followed; each change goes through the pipeline like any write.
    const declarative = await stack.start('declarative storage', async (onStop) => {
      const following = await startDeclarativeStorage(config, store, logger, metrics);
      if (following !== undefined) onStop(() => following.stop());
      return following;
    });

    // Authentication: the first token, the live digest set (published to NATS when scaled out), the cleanup job.
    const digestBus = await stack.start('token digest bus', (onStop) => {
      if (config.nats.url === '') return undefined;
      const opened = openDigestBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name: 'ensign-server-auth' });
      onStop(() => opened.close());
      return opened;
    });
    const authentication = await stack.start('authentication', async (onStop) => {
      const created = createServerAuthentication({ config, store, logger, ...(digestBus === undefined ? {} : { bus: digestBus }), ...(trail === undefined ? {} : { audit: trail }) });
      onStop(() => created.close());
      await created.start();
      return created;
    });
    if (authentication.authorizationMetrics !== undefined) registerAuthorizationMetrics(metrics, authentication.authorizationMetrics);
    logger.info({ required: config.authentication.required }, 'authentication ready');

    await stack.start('history retention', (onStop) => {
      const retention = new HistoryRetention({ history: store.audit, retentionMs: config.audit.retention, logger });
      onStop(() => retention.stop());
      retention.start();
    });
    // Evaluation counts: this process's go straight to the database; scaled out, the evaluators' arrive over NATS.
    const usage = store.usage;
    await stack.start('usage bus', (onStop) => {
      const opened = openConfiguredUsageBus(config, logger, 'ensign-server-usage');
      if (opened === undefined) return;
      onStop(() => opened.close());
      opened.serveUsage((batch) => usage.record(batch));
    });
    // Pruned even with analytics off, so counts stored before it was turned off do not stay forever.
    await stack.start('analytics retention', (onStop) => {
      const retention = new AnalyticsRetention({ usage, logger, minuteRetentionMs: config.analytics.retention, hourRetentionMs: config.analytics.usage_retention });
      onStop(() => retention.stop());
      retention.start();
    });

    const readable = readCache === undefined ? store : withReadCache(store, readCache.cache);
    // Read-only (local and git storage, or storage.read_only): every management write is refused after its validation, as in Flipt.
    const readOnly = isReadOnly(config);
    const managed = readOnly ? readOnlyStore(readable) : readable;
    const storage = { type: config.storage.type, readOnly, ...(declarative === undefined ? {} : { status: () => declarative.status() }) };
    const ui = config.ui.enabled ? loadUi(logger, embedded.ui) : undefined;
    // Evaluations, HTTP requests (evaluation and management routes alike) and gRPC calls are each
    // counted in one tally for every transport, and read when /metrics is scraped (evaluations also by the usage shipper).
    const counting = countingOf(config, metrics);
    const { recorder, requests } = counting;
    // Stopped once no evaluation is answered any more: what this process counted since the last flush is stored (bounded).
    await stack.start('usage shipper', (onStop) => {
      const shipper = startUsageShipper(config, logger, counting, (batch) => usage.record(batch), 'server');
      if (shipper !== undefined) onStop(() => shipper.stop());
    });
    // With analytics off nothing is counted, so the analytics and usage routes are not served.
    const analytics = config.analytics.enabled ? { analytics: { usage, staleAfterMs: config.analytics.stale_after } } : {};
    // One set of use cases for HTTP and gRPC.
    const services = managementServices(managed);
    const { app, changeRequests } = createControlPlane({ store: managed, services, logger, bodyLimitBytes: config.server.body_limit, metrics, ...(requests === undefined ? {} : { requests }), auth: authentication.app, ...(ui === undefined ? {} : { ui }), ...analytics, storage, changeRequests: store, build: buildInfo() });
    // Change requests scheduled to apply are applied at their time (missed ones now), as the scheduler.
    if (changeRequests !== undefined) {
      await stack.start('scheduled change requests', async (onStop) => {
        const scheduled = new ScheduledApply({ requests: store.changeRequests, service: changeRequests, logger, pollMs: config.db.poll_interval > 0 ? config.db.poll_interval : STEP_POLL_MS });
        onStop(() => scheduled.stop());
        await scheduled.start();
      });
    }
    const authorizeSnapshot = snapshotAuthorization(authentication.app, config.authentication.exclude.evaluation);
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit, auth: authentication.evaluator, hash: config.evaluation.hash, ...counting, ...(authorizeSnapshot === undefined ? {} : { authorizeSnapshot }) });
    const streams = evaluate.streams;
    if (streams !== undefined) registerStreamMetrics(metrics, streams.counts);
    // gRPC first: once /health answers, every port of the instance is served.
    await stack.start(
      'gRPC listener',
      async (onStop) => {
        const grpc = await startGrpcListener({
          config,
          logger,
          bindings: [fliptBinding({ services, source, ...(authentication.app.authorization === undefined ? {} : { authorization: authentication.app.authorization }) }), flagTimingBinding({ services }), ...(changeRequests === undefined ? [] : [changeRequestBinding({ changeRequests, logger })]), ...evaluationBindings({ source, ...(recorder === undefined ? {} : { recorder }) }), ...authBindings({ auth: authentication.app })],
          auth: { ...grpcAuth(authentication.evaluator, authentication.app.authenticator), ...(authentication.app.authorization === undefined ? {} : { authorization: authentication.app.authorization }), protection: store.changePolicies },
          readiness: managed,
          tls,
          ...(requests === undefined ? {} : { calls: requests }),
        });
        onStop((ms) => stopGrpc(grpc, ms, logger));
      },
      { group: LISTENERS },
    );
    const server = await stack.start(
      'HTTP listener',
      async (onStop) => {
        const http = await listen(composeHandlers(evaluate, app.callback()), { host: config.server.host, port: config.server.http_port, ...(tls === undefined ? {} : { tls }) });
        onStop((ms) => stopHttp(http, streams, ms, logger));
        return http;
      },
      { group: LISTENERS },
    );
    address = server.address;
  } catch (err) {
    await unwindFailedStart(stack, logger, err);
    // An authorization policy or data file that does not load is a configuration error.
    return err instanceof PolicyFileError ? 2 : 1;
  }
  logger.info({ address }, 'listening');

  if (!(await stopForSignal(stack, logger, await stopSignal, config.server.shutdown_timeout))) return 1;
  logger.info('stopped');
  return 0;
}
