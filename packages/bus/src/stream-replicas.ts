/** Keeping the bucket's streams at the replicas configured, when the bucket was made with fewer. */
import type { NatsConnection } from 'nats';
import type { BusLogger } from './bus-logger.js';

/**
 * Raises each stream's replicas to `replicas` (a bucket created before `nats.replicas` was raised);
 * never lowers them, since one process configured with fewer (an evaluator left at the default)
 * must not take the copies away from the rest. A refusal is logged and the bus goes on.
 */
export async function raiseReplicas(nc: NatsConnection, streams: string[], replicas: number, logger: BusLogger | undefined): Promise<void> {
  const jsm = await nc.jetstreamManager();
  for (const stream of streams) {
    try {
      const held = (await jsm.streams.info(stream)).config.num_replicas;
      if (held >= replicas) continue;
      await jsm.streams.update(stream, { num_replicas: replicas });
      logger?.info({ stream, from: held, to: replicas }, 'stream replicas raised to nats.replicas');
    } catch (err) {
      logger?.warn({ err, stream, replicas }, 'could not raise the stream replicas to nats.replicas');
    }
  }
}
