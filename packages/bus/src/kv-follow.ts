/** Following keys of a JetStream KV bucket through NATS outages: the one watch loop both bus halves use. */
import type { KV, KvEntry } from 'nats';
import type { BusLogger } from './bus-logger.js';

export interface KvFollowOptions {
  /** The bucket; rejects while NATS is unreachable, and is asked again on the next attempt. */
  open: () => Promise<KV>;
  key: string | string[];
  /** Handles one entry; entries are delivered one at a time, in order. */
  deliver: (entry: KvEntry) => Promise<void>;
  /** Called once, after the entries held when the first watch began have been delivered. */
  onInitialSynced: () => void;
  /** Names the watch in log lines, e.g. "snapshot watch". */
  what: string;
  bucket: string;
  logger: BusLogger | undefined;
  retryWaitMs: number;
  /** The follows of one bus, so closing it stops them all; a follow leaves it when stopped. */
  registry: Set<KvFollow>;
  /**
   * Calls its argument each time the connection is back after a loss; returns how to stop. The
   * watch's consumer may not have outlived the outage (a restarted server forgets it, an idle one
   * drops it after a few seconds), and its own heartbeat check would take 10-15 s to notice.
   */
  onReconnect?: (reconnected: () => void) => () => void;
}

export interface KvFollow {
  stop(): Promise<void>;
}

/**
 * Watches `key` (initial values, then updates) and restarts the watch whenever it ends, fails or
 * the connection comes back, so a follower resumes by itself after an outage. A restarted watch
 * starts after the last entry delivered, so it delivers what was missed and nothing twice. Returns
 * at once.
 */
export function followKv(options: KvFollowOptions): KvFollow {
  const { logger, bucket, what } = options;
  let stopped = false;
  let synced = false;
  /** Stream sequence of the last entry delivered; 0 before the first. */
  let lastSeq = 0;
  /** Counts reconnections, so a watch opened across one is replaced at once. */
  let reconnects = 0;
  let stopCurrent: (() => void) | undefined;
  const markSynced = (): void => {
    if (synced || stopped) return;
    synced = true;
    options.onInitialSynced();
  };

  /** One watch; resolves when its iterator ends. */
  async function runOnce(): Promise<void> {
    const epoch = reconnects;
    const kv = await options.open();
    let returned = false;
    let initializedEarly = false;
    const iter = await kv.watch({
      key: options.key,
      ...(lastSeq > 0 ? { resumeFromRevision: lastSeq + 1 } : {}),
      initializedFn: () => {
        // Called in order through the iterator, or before `watch` returns with entries still queued.
        if (returned) markSynced();
        else initializedEarly = true;
      },
    });
    returned = true;
    stopCurrent = () => iter.stop();
    if (stopped || reconnects !== epoch) iter.stop();
    const target = initializedEarly ? iter.getReceived() : Infinity;
    let processed = 0;
    if (processed >= target) markSynced();
    for await (const entry of iter) {
      if (stopped || reconnects !== epoch) break;
      await options.deliver(entry);
      lastSeq = entry.revision;
      if (++processed >= target) markSynced();
    }
  }

  const stopListening = options.onReconnect?.(() => {
    reconnects++;
    stopCurrent?.();
  });

  const loop = (async () => {
    while (!stopped) {
      const epoch = reconnects;
      try {
        await runOnce();
        if (stopped || reconnects !== epoch) continue;
        logger?.warn({ bucket }, `${what} ended, restarting`);
      } catch (err) {
        if (stopped) return;
        if (reconnects !== epoch) continue;
        logger?.warn({ err, bucket }, `${what} failed, retrying`);
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, options.retryWaitMs));
    }
  })();

  const follow: KvFollow = {
    async stop() {
      stopped = true;
      stopListening?.();
      stopCurrent?.();
      options.registry.delete(follow);
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 1000))]);
    },
  };
  options.registry.add(follow);
  return follow;
}

/** JetStream's "wrong last sequence": someone else wrote the key first. */
const WRONG_LAST_SEQUENCE = 10071;

/** Whether a compare-and-set put lost to a concurrent writer. */
const isConflict = (err: unknown): boolean => (err as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE;

/** Compare-and-set attempts before a publish gives up to concurrent writers. */
const MAX_CAS_ATTEMPTS = 10;

/** Runs `attempt` (a read, then a compare-and-set write) again whenever it loses the race to another writer. */
export async function retryOnConflict(what: string, attempt: () => Promise<void>): Promise<void> {
  for (let i = 0; i < MAX_CAS_ATTEMPTS; i++) {
    try {
      await attempt();
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  throw new Error(`${what}: too many concurrent writers`);
}
