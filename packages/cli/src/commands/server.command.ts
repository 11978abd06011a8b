/** `ensign server`: migrate, serve the API, shut down gracefully on a signal. */
import { createApp } from '@ensign/control-plane';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { listen, type RunningServer } from '../http-server.js';

/** Runs the server until `stopSignal` resolves (with the signal's name); resolves the exit code. */
export async function serverCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>): Promise<number> {
  let store: SqlStore | undefined;
  let server: RunningServer;
  try {
    store = await openConfiguredStore(config);
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    else logger.info('database schema is up to date');
    const app = createApp({ store, logger, bodyLimitBytes: config.server.body_limit });
    server = await listen(app.callback(), { host: config.server.host, port: config.server.http_port });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await store?.close().catch(() => undefined);
    return 1;
  }
  logger.info({ address: server.address }, 'listening');

  const signal = await stopSignal;
  logger.info({ signal, timeoutMs: config.server.shutdown_timeout }, 'shutting down');
  const inTime = await server.shutdown(config.server.shutdown_timeout);
  if (!inTime) logger.warn('shutdown timeout reached; remaining connections were closed');
  try {
    await store.close();
  } catch (err) {
    logger.error({ err }, 'closing the database failed');
    return 1;
  }
  logger.info('stopped');
  return 0;
}
