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
  /**
   * Calls its argument each time the cluster changed (a server left or joined); returns how to
   * stop. The watch asks after its consumer then, and restarts when it does not answer: the
   * server it lived on is gone. A consumer that answers is left alone, so a watch keeps flowing
   * while the cluster elects a new JetStream meta leader, which a new consumer would wait for.
   */
  onClusterChange?: (changed: () => void) => () => void;
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
  /** Counts the times the consumer was or may have been lost, so a watch opened across one is replaced at once. */
  let losses = 0;
  let stopCurrent: (() => void) | undefined;
  /** Whether the current watch's consumer still answers. */
  let consumerAnswers: (() => Promise<boolean>) | undefined;
  const markSynced = (): void => {
    if (synced || stopped) return;
    synced = true;
    options.onInitialSynced();
  };

  /** One watch; resolves when its iterator ends. */
  async function runOnce(): Promise<void> {
    const epoch = losses;
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
    consumerAnswers = () => answers(iter);
    if (stopped || losses !== epoch) iter.stop();
    const target = initializedEarly ? iter.getReceived() : Infinity;
    let processed = 0;
    if (processed >= target) markSynced();
    for await (const entry of iter) {
      if (stopped || losses !== epoch) break;
      await options.deliver(entry);
      lastSeq = entry.revision;
      if (++processed >= target) markSynced();
    }
  }

  const restart = (): void => {
    losses++;
    stopCurrent?.();
  };
  const stopListening = options.onReconnect?.(restart);
  const stopHearingCluster = options.onClusterChange?.(() => {
    const epoch = losses;
    void consumerAnswers?.().then((ok) => {
      if (!ok && epoch === losses && !stopped) restart();
    });
  });

  const loop = (async () => {
    while (!stopped) {
      const epoch = losses;
      try {
        await runOnce();
        if (stopped || losses !== epoch) continue;
        logger?.warn({ bucket }, `${what} ended, restarting`);
      } catch (err) {
        if (stopped) return;
        if (losses !== epoch) continue;
        logger?.warn({ err, bucket }, `${what} failed, retrying`);
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, options.retryWaitMs));
    }
  })();

  const follow: KvFollow = {
    async stop() {
      stopped = true;
      stopListening?.();
      stopHearingCluster?.();
      stopCurrent?.();
      options.registry.delete(follow);
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 1000))]);
    },
  };
  options.registry.add(follow);
  return follow;
}

/**
 * Whether a watch's consumer answers (its info, within the JetStream request timeout). The
 * iterator keeps its subscription in a field nats.js does not type; without it, say no.
 */
async function answers(iter: object): Promise<boolean> {
  const sub = (iter as { _data?: { consumerInfo?: () => Promise<unknown> } })._data;
  if (typeof sub?.consumerInfo !== 'function') return false;
  try {
    await sub.consumerInfo();
    return true;
  } catch {
    return false;
  }
}

/** JetStream's "wrong last sequence": someone else wrote the key first. */
const WRONG_LAST_SEQUENCE = 10071;

/** Whether a compare-and-set put lost to a concurrent writer. */
const isConflict = (err: unknown): boolean => (err as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE;

/**
 * Whether JetStream could not answer for now: no server answered (the stream's leader died and its
 * replicas are electing another, which takes nats-server 4-9 s), the request timed out, or the
 * server said it is temporarily unavailable.
 */
const isUnavailable = (err: unknown): boolean => {
  const e = err as { code?: string; api_error?: { code?: number } };
  return e.code === '503' || e.code === 'TIMEOUT' || e.api_error?.code === 503;
};

/** Compare-and-set attempts before a publish gives up to concurrent writers. */
const MAX_CAS_ATTEMPTS = 10;

/** How long a write waits out JetStream being unavailable: a stream leader's election, and a second one. */
export const UNAVAILABLE_RETRY_MS = 20_000;
const UNAVAILABLE_WAIT_MS = 250;

/**
 * Runs `attempt` (a read, then a compare-and-set write) again whenever it loses the race to another
 * writer, and while JetStream is unavailable (for at most `unavailableForMs`). Retrying is safe:
 * the attempt reads the key again and writes only when what it holds is still older.
 */
export async function retryWrite(what: string, attempt: () => Promise<void>, unavailableForMs = UNAVAILABLE_RETRY_MS): Promise<void> {
  const giveUpAt = Date.now() + unavailableForMs;
  for (let conflicts = 0; conflicts < MAX_CAS_ATTEMPTS; ) {
    try {
      await attempt();
      return;
    } catch (err) {
      if (isConflict(err)) conflicts++;
      else if (!isUnavailable(err) || Date.now() >= giveUpAt) throw err;
      else await new Promise((resolve) => setTimeout(resolve, UNAVAILABLE_WAIT_MS));
    }
  }
  throw new Error(`${what}: too many concurrent writers`);
}
