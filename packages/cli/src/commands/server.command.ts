/** `ensign server`: migrate, load every namespace, serve the API and evaluation, shut down gracefully on a signal. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KvSnapshotSink, type SnapshotBus } from '@ensign/bus';
import { CommitRelay, CompositeSnapshotSink, createApp, SnapshotPublisher, SnapshotReconciler, type SnapshotSink } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { listen, type RunningServer } from '../http-server.js';
import { openConfiguredBus, within } from '../snapshot-bus.js';

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
export async function serverCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>): Promise<number> {
  let store: SqlStore | undefined;
  let publisher: SnapshotPublisher | undefined;
  let bus: SnapshotBus | undefined;
  let kvSink: KvSnapshotSink | undefined;
  let reconciler: SnapshotReconciler | undefined;
  let server: RunningServer;
  /** Stops publishing to NATS: the reconcile loop, then what is queued (bounded), then the connection. */
  const closeBus = async (): Promise<void> => {
    await reconciler?.stop();
    if (kvSink !== undefined && !(await within(kvSink.settled(), BUS_DRAIN_MS))) logger.warn('snapshots still unpublished at shutdown; the next reconcile publishes them');
    await bus?.close();
  };
  try {
    // Every committed write recompiles its namespace; the publisher can only exist once the store does.
    const relay = new CommitRelay();
    store = await openConfiguredStore(config, relay.onCommit);
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    else logger.info('database schema is up to date');

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
      logger.info({ bucket: config.nats.bucket, reconcileIntervalMs: config.nats.reconcile_interval }, 'publishing snapshots to NATS');
    }

    const app = createApp({ store, logger, bodyLimitBytes: config.server.body_limit, snapshots: publisher });
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit });
    server = await listen(composeHandlers(evaluate, app.callback()), { host: config.server.host, port: config.server.http_port });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await publisher?.settled().catch(() => undefined);
    await closeBus().catch(() => undefined);
    await store?.close().catch(() => undefined);
    return 1;
  }
  logger.info({ address: server.address }, 'listening');

  const signal = await stopSignal;
  logger.info({ signal, timeoutMs: config.server.shutdown_timeout }, 'shutting down');
  const inTime = await server.shutdown(config.server.shutdown_timeout);
  if (!inTime) logger.warn('shutdown timeout reached; remaining connections were closed');
  try {
    await publisher.settled();
    await closeBus();
    await store.close();
  } catch (err) {
    logger.error({ err }, 'closing the database failed');
    return 1;
  }
  logger.info('stopped');
  return 0;
}
