/** `ensign server`: migrate, load every namespace, serve the API and evaluation, shut down gracefully on a signal. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DigestBus, KvSnapshotSink, openDigestBus, type SnapshotBus } from '@ensign/bus';
import { BucketFollower, CommitRelay, CompositeSnapshotSink, createApp, createMetricsRegistry, type OpenedReadCache, SnapshotPublisher, SnapshotReconciler, type SnapshotSink, withReadCache } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import { authBindings, evaluationBindings, fliptBinding, type RunningGrpcServer, settlingWrites } from '@ensign/grpc';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import { createServerAuthentication, type ServerAuthentication } from '../authentication.js';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import type { EmbeddedResources } from '../embedded.js';
import { grpcAuth, startGrpcListener } from '../grpc-listener.js';
import { listen, type RunningServer } from '../http-server.js';
import { openConfiguredReadCache } from '../read-cache.js';
import { openConfiguredBus, within } from '../snapshot-bus.js';
import { configuredTls } from '../tls-files.js';
import { loadUi } from '../ui-files.js';

/** How long shutdown waits for snapshots still being published to NATS. */
const BUS_DRAIN_MS = 5000;

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

/** Runs the server until `stopSignal` resolves (with the signal's name); resolves the exit code. */
export async function serverCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, embedded: EmbeddedResources = {}): Promise<number> {
  let store: SqlStore | undefined;
  let publisher: SnapshotPublisher | undefined;
  let bus: SnapshotBus | undefined;
  let kvSink: KvSnapshotSink | undefined;
  let reconciler: SnapshotReconciler | undefined;
  let follower: BucketFollower | undefined;
  let readCache: OpenedReadCache | undefined;
  let digestBus: DigestBus | undefined;
  let authentication: ServerAuthentication | undefined;
  let server: RunningServer;
  let grpc: RunningGrpcServer | undefined;
  /** Stops publishing to NATS: the reconcile loop, then what is queued (bounded), then the connection. */
  const closeBus = async (): Promise<void> => {
    await reconciler?.stop();
    await follower?.stop();
    if (kvSink !== undefined && !(await within(kvSink.settled(), BUS_DRAIN_MS))) logger.warn('snapshots still unpublished at shutdown; the next reconcile publishes them');
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
    // Every committed write recompiles its namespace; the publisher can only exist once the store does.
    const relay = new CommitRelay();
    store = await openConfiguredStore(config, { onCommit: relay.onCommit, embedded });
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    else logger.info('database schema is up to date');
    const metrics = createMetricsRegistry();
    // Management reads come from the cache; each committed write invalidates what it changed, here and on the other control planes.
    readCache = openConfiguredReadCache(config, logger, metrics);
    if (readCache !== undefined) relay.attach(readCache.invalidator.notify);

    const source = new InProcessSnapshotSource();
    // Scaled out, every snapshot also goes to the NATS bucket; publishing there never blocks a write.
    bus = openConfiguredBus(config, logger, 'ensign-server');
    let sink: SnapshotSink = source;
    if (bus !== undefined) {
      kvSink = new KvSnapshotSink(bus, logger);
      sink = new CompositeSnapshotSink([source, kvSink], logger);
    }
    publisher = new SnapshotPublisher({ store, sink, hash: config.evaluation.hash, logger });
    relay.attach(publisher.notify);
    await publisher.loadAll();
    source.markReady();
    logger.info({ hash: config.evaluation.hash }, 'evaluation snapshots loaded');
    if (bus !== undefined) {
      reconciler = new SnapshotReconciler({ store, bus, hash: config.evaluation.hash, intervalMs: config.nats.reconcile_interval, logger });
      reconciler.start();
      // Writes through other control planes on the same database reach this one's evaluations through the bucket.
      follower = new BucketFollower({ bucket: bus, sink: source, store, hash: config.evaluation.hash, logger });
      await follower.start();
      logger.info({ bucket: config.nats.bucket, reconcileIntervalMs: config.nats.reconcile_interval }, 'publishing snapshots to NATS');
    }

    // Authentication: the first token, the live digest set (published to NATS when scaled out), the cleanup job.
    if (config.nats.url !== '') digestBus = openDigestBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name: 'ensign-server-auth' });
    authentication = createServerAuthentication({ config, store, logger, ...(digestBus === undefined ? {} : { bus: digestBus }) });
    await authentication.start();
    logger.info({ required: config.authentication.required }, 'authentication ready');

    const published = publisher;
    const invalidated = readCache?.invalidator;
    // A write answers once its snapshot is published and its cached reads are invalidated.
    const settled = {
      settled: async (): Promise<void> => {
        await Promise.all([published.settled(), invalidated?.settled()]);
      },
    };
    const managed = readCache === undefined ? store : withReadCache(store, readCache.cache);
    const ui = config.ui.enabled ? loadUi(logger, embedded.ui) : undefined;
    const app = createApp({ store: managed, logger, bodyLimitBytes: config.server.body_limit, snapshots: settled, metrics, auth: authentication.app, ...(ui === undefined ? {} : { ui }) });
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit, auth: authentication.evaluator });
    // gRPC first: once /health answers, every port of the instance is served.
    grpc = await startGrpcListener({
      config,
      logger,
      bindings: [settlingWrites(fliptBinding({ store: managed, source }), { snapshots: settled, logger }), ...evaluationBindings({ source }), ...authBindings({ auth: authentication.app })],
      auth: grpcAuth(authentication.evaluator, authentication.app.authenticator),
      readiness: managed,
      tls,
    });
    server = await listen(composeHandlers(evaluate, app.callback()), { host: config.server.host, port: config.server.http_port, ...(tls === undefined ? {} : { tls }) });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await grpc?.shutdown(0).catch(() => undefined);
    await publisher?.settled().catch(() => undefined);
    await closeAuthentication().catch(() => undefined);
    await closeBus().catch(() => undefined);
    await readCache?.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    return 1;
  }
  logger.info({ address: server.address }, 'listening');

  const signal = await stopSignal;
  logger.info({ signal, timeoutMs: config.server.shutdown_timeout }, 'shutting down');
  const [inTime, grpcInTime] = await Promise.all([server.shutdown(config.server.shutdown_timeout), grpc.shutdown(config.server.shutdown_timeout)]);
  if (!inTime) logger.warn('shutdown timeout reached; remaining connections were closed');
  if (!grpcInTime) logger.warn('shutdown timeout reached; remaining gRPC calls were cancelled');
  try {
    await publisher.settled();
    await readCache?.invalidator.settled();
    await readCache?.close();
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
