/**
 * The token-digest set on the bus: the control plane publishes the live client-token digests
 * under one key of the snapshot bucket, and evaluators watch it to check bearer tokens without a
 * database. It has its own NATS connection, so it opens and heals independently of snapshots.
 */
import { isNewer } from '@ensign/core';
import type { KV, KvEntry } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { decodeDigests, encodeDigests, loadedAtOf, type PublishedDigest, type PublishedDigests } from './digest-codec.js';
import { AUTH_DIGESTS_KEY } from './keys.js';
import { followKv, type KvFollow, retryWrite } from './kv-follow.js';
import { type BusStatus, HealingConnection, JETSTREAM_TIMEOUT_MS, openedOnce } from './nats-connection.js';

export interface DigestBusOptions {
  url: string;
  /** The snapshot bucket; the set lives under its `auth.digests` key. */
  bucket?: string;
  logger?: BusLogger;
  name?: string;
  reconnectTimeWaitMs?: number;
}

export interface DigestWatch {
  stop(): Promise<void>;
}

/** Publishes and watches the token-digest set. */
export interface DigestBus {
  /** Puts the set unless the bucket holds one read from the database later (`loadedAtMs`). */
  publishDigests(digests: PublishedDigests, loadedAtMs: number): Promise<void>;
  /**
   * Delivers the set held (if any), then `onInitialSynced` once, then every newer set. Returns at
   * once; it keeps trying while NATS is unreachable and resumes after an outage.
   */
  watchDigests(onSet: (digests: Map<string, PublishedDigest>, loadedAtMs: number) => void, onInitialSynced?: () => void): Promise<DigestWatch>;
  status(): BusStatus;
  close(): Promise<void>;
}


export function openDigestBus(options: DigestBusOptions): DigestBus {
  const bucket = options.bucket ?? 'ensign_snapshots';
  const logger = options.logger;
  const retryWait = options.reconnectTimeWaitMs ?? 250;
  const connection = new HealingConnection({ url: options.url, name: options.name, reconnectTimeWaitMs: retryWait, logger });
  const watches = new Set<KvFollow>();
  const kv = openedOnce(async (): Promise<KV> => (await connection.ready).jetstream({ timeout: JETSTREAM_TIMEOUT_MS }).views.kv(bucket, { history: 1 }));

  async function publishDigests(digests: PublishedDigests, loadedAtMs: number): Promise<void> {
    const store = await kv();
    const value = await encodeDigests(digests, loadedAtMs);
    await retryWrite('publishing the token digests', async () => {
      const current = await store.get(AUTH_DIGESTS_KEY);
      if (current?.operation === 'PUT' && ((await loadedAtOf(current.value)) ?? -1) > loadedAtMs) return;
      await store.put(AUTH_DIGESTS_KEY, value, { previousSeq: current?.revision ?? 0 });
    });
  }

  async function watchDigests(onSet: (digests: Map<string, PublishedDigest>, loadedAtMs: number) => void, onInitialSynced?: () => void): Promise<DigestWatch> {
    let newest: number | undefined;
    async function deliver(entry: KvEntry): Promise<void> {
      if (entry.operation !== 'PUT') return;
      try {
        const record = await decodeDigests(entry.value);
        if (!isNewer(record.loadedAtMs, newest)) return;
        newest = record.loadedAtMs;
        onSet(record.digests, record.loadedAtMs);
      } catch (err) {
        logger?.warn({ err, seq: entry.revision }, 'unreadable token digest set skipped');
      }
    }

    return followKv({
      open: kv,
      key: AUTH_DIGESTS_KEY,
      deliver,
      onInitialSynced: () => onInitialSynced?.(),
      what: 'token digest watch',
      bucket,
      logger,
      retryWaitMs: retryWait,
      registry: watches,
      onReconnect: (reconnected) => connection.onReconnect(reconnected),
      onClusterChange: (changed) => connection.onClusterChange(changed),
    });
  }

  return {
    publishDigests,
    watchDigests,
    status: () => connection.status(),
    async close() {
      await Promise.all([...watches].map((w) => w.stop()));
      await connection.close();
    },
  };
}
