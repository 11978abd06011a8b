/** `ensign server`: migrate, load every namespace, serve the API and evaluation, shut down gracefully on a signal. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CommitRelay, createApp, SnapshotPublisher } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { listen, type RunningServer } from '../http-server.js';

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
  let server: RunningServer;
  try {
    // Every committed write recompiles its namespace; the publisher can only exist once the store does.
    const relay = new CommitRelay();
    store = await openConfiguredStore(config, relay.onCommit);
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    else logger.info('database schema is up to date');

    const source = new InProcessSnapshotSource();
    publisher = new SnapshotPublisher({ store, sink: source, hash: config.evaluation.hash, logger });
    relay.attach(publisher.notify);
    await publisher.loadAll();
    source.markReady();
    logger.info({ hash: config.evaluation.hash }, 'evaluation snapshots loaded');

    const app = createApp({ store, logger, bodyLimitBytes: config.server.body_limit, snapshots: publisher });
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit });
    server = await listen(composeHandlers(evaluate, app.callback()), { host: config.server.host, port: config.server.http_port });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await publisher?.settled().catch(() => undefined);
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
    await store.close();
  } catch (err) {
    logger.error({ err }, 'closing the database failed');
    return 1;
  }
  logger.info('stopped');
  return 0;
}
