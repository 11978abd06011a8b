/**
 * The primary process of `ensign evaluator --workers N`: it opens no bus and answers nothing
 * itself. It forks the workers (each an evaluator following the bucket, shipping its own evaluation
 * counts under its own batch ids), holds the ports they share, replaces a worker that dies, gathers
 * `/metrics` for whichever worker a scrape reaches, and on SIGTERM has every worker drain within
 * `server.shutdown_timeout`.
 */
import type { Logger } from 'pino';
import type { EnsignConfig } from '../config/config.schema.js';
import { Lifecycle, type LifecycleHooks, stopForSignal, unwindFailedStart } from '../lifecycle.js';
import { MetricsGathering } from './metrics-gathering.js';
import { WorkerPool } from './worker-pool.js';

/** Runs `count` workers until `stopSignal` resolves; resolves the exit code. */
export async function evaluatorPrimary(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, count: number, hooks: LifecycleHooks = {}): Promise<number> {
  const stack = new Lifecycle(hooks);
  let pool!: WorkerPool;
  try {
    pool = await stack.start('workers', async (onStop) => {
      let gathering: MetricsGathering | undefined;
      const workers = new WorkerPool({
        count,
        logger,
        onMessage: (worker, message) => gathering?.onMessage(worker, message),
        onExit: (worker) => gathering?.forget(worker),
      });
      gathering = new MetricsGathering(workers);
      onStop((ms) => workers.stop(ms));
      logger.info({ workers: count }, 'starting evaluator workers');
      // Workers wait for their initial sync (NATS may be down for long): a stop signal meanwhile stops them.
      await Promise.race([workers.start(), stopSignal]);
      return workers;
    });
  } catch (err) {
    await unwindFailedStart(stack, logger, err);
    return 1;
  }
  if (pool.answering().length === count) logger.info({ address: pool.address, workers: count, bucket: config.nats.bucket, authenticationRequired: config.authentication.required }, 'evaluator listening');

  if (!(await stopForSignal(stack, logger, await stopSignal, config.server.shutdown_timeout))) return 1;
  logger.info('stopped');
  return 0;
}
