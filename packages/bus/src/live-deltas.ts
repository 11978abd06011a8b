/**
 * Deltas over core NATS, beside the bucket. A control plane sends each delta's envelope on its
 * namespace's live subject as it writes it to the bucket, and every watch hears it there too. A
 * cluster routes core messages without Raft: when the server leading the bucket's stream dies,
 * the bucket takes no write until the others elect a new leader (nats-server 2.9 waits 4-9 s),
 * but deltas keep reaching the watchers. The bucket stays the durable path and what a starting
 * process reads. Delivery is at most once: a delta missed (a watcher reconnecting) is carried by
 * the next one, which is cumulative, or by the bucket.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { envelopeAt } from './bucket-context.js';
import { type DeltaEnvelope, NewerEnvelopeError } from './envelope.js';
import { namespaceOfToken, namespaceToken } from './keys.js';

/** The subject a namespace's deltas are sent on: `<bucket>.live.<namespace token>`. */
export const liveSubject = (bucket: string, namespaceKey: string): string => `${bucket}.live.${namespaceToken(namespaceKey)}`;

/**
 * Messages heard but not yet handed on, past which more are dropped (the bucket brings them): a
 * watcher that falls that far behind is better served by the next cumulative delta than by a queue.
 */
const MAX_PENDING = 1000;

export interface LiveSubscription {
  stop(): void;
}

export interface LiveDeltas {
  /** Sends an encoded delta envelope to every watch now; false when it was not sent (over the server's message size, or the connection is closed). */
  publish(namespaceKey: string, value: Uint8Array): Promise<boolean>;
  /** Hands each well-formed delta heard to `deliver`, one at a time in the order heard, until stopped. Survives reconnects (nats.js subscribes again). */
  subscribe(deliver: (envelope: DeltaEnvelope) => Promise<void>): LiveSubscription;
}

export function liveDeltas(options: { bucket: string; ready: Promise<NatsConnection>; logger: BusLogger | undefined }): LiveDeltas {
  const { bucket, ready, logger } = options;
  const prefix = `${bucket}.live.`;
  let unreadableLogged = false;

  /** The delta a message carries, or undefined (an unreadable one is logged once: the bucket's entries still come). */
  function envelopeOf(subject: string, data: Uint8Array): DeltaEnvelope | undefined {
    try {
      return envelopeAt({ namespaceKey: namespaceOfToken(subject.slice(prefix.length)), kind: 'delta' }, data);
    } catch (err) {
      // A newer release's envelope is logged by the bucket's watch, which meets it too.
      if (!(err instanceof NewerEnvelopeError) && !unreadableLogged) {
        unreadableLogged = true;
        logger?.warn({ err, subject }, 'unreadable live snapshot delta skipped (logged once); the bucket carries the change');
      }
      return undefined;
    }
  }

  return {
    async publish(namespaceKey, value) {
      try {
        const nc = await ready;
        if (nc.isClosed() || value.length > (nc.info?.max_payload ?? Infinity)) return false;
        nc.publish(liveSubject(bucket, namespaceKey), value);
        return true;
      } catch {
        return false;
      }
    },

    subscribe(deliver) {
      let stopped = false;
      let subscription: Subscription | undefined;
      let pending = 0;
      let chain = Promise.resolve();
      void ready.then(
        (nc) => {
          if (stopped || nc.isClosed()) return;
          subscription = nc.subscribe(`${prefix}*`, {
            callback: (err, msg) => {
              if (err !== null || stopped || pending >= MAX_PENDING) return;
              const envelope = envelopeOf(msg.subject, msg.data);
              if (envelope === undefined) return;
              pending++;
              chain = chain.then(async () => {
                try {
                  if (!stopped) await deliver(envelope);
                } catch {
                  // `deliver` reports its own failures; the next delta is handed on all the same.
                } finally {
                  pending--;
                }
              });
            },
          });
        },
        // Closed before connecting: there is nothing to hear.
        () => undefined,
      );
      return {
        stop() {
          stopped = true;
          subscription?.unsubscribe();
        },
      };
    },
  };
}
