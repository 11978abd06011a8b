/**
 * The snapshot bucket: per namespace a full hydration (compacted now and then) and a small
 * cumulative delta on top, written by control planes and followed by evaluators; deltas also go
 * over core NATS (live-deltas.ts), which keeps flowing while the bucket's stream elects a leader.
 */
import type { NamespaceSnapshot, SnapshotDelta } from '@ensign/snapshots';
import type { KvEntry } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { type BucketContext, type BucketHandles, heldEnvelope } from './bucket-context.js';
import { type BucketEntry, entryOf, liveEntryOf } from './bucket-entry.js';
import { ENVELOPE_VERSION, type EnvelopeVersion } from './envelope.js';
import { NAMESPACE_KEYS, parseKvKey } from './keys.js';
import { followKv, type KvFollow } from './kv-follow.js';
import { type LiveSubscription, liveDeltas } from './live-deltas.js';
import { type BusStatus, HealingConnection, JETSTREAM_TIMEOUT_MS, openedOnce } from './nats-connection.js';
import { type CurrentSnapshot, currentSnapshot, heldRevisions } from './snapshot-reads.js';
import { publishDelta, publishHydration, publishLiveDelta, removeNamespace } from './snapshot-writes.js';
import { raiseReplicas } from './stream-replicas.js';

export interface SnapshotBusOptions {
  /** NATS server URL, e.g. `nats://127.0.0.1:4222`, or several of one cluster, comma-separated. */
  url: string;
  /** Copies the cluster keeps of the bucket and the object store (JetStream replicas); 1 unless set. */
  replicas?: number;
  /** The envelope format written: this release's (`ENVELOPE_VERSION`) unless set; 1 while processes of the previous release remain. */
  envelopeVersion?: EnvelopeVersion;
  /** KV bucket holding each namespace's hydration and delta. */
  bucket?: string;
  /** Object Store holding hydrations too large to go inline. */
  objectStore?: string;
  maxInlineBytes?: number;
  logger?: BusLogger;
  /** Connection name shown by the NATS server's monitoring. */
  name?: string;
  /** Delay between connection attempts; 250 ms unless set. */
  reconnectTimeWaitMs?: number;
}

export interface SnapshotWatch {
  stop(): Promise<void>;
}

/** Publishes and reads namespace snapshots in a JetStream KV bucket. */
export interface SnapshotBus {
  /** Puts a full snapshot unless the bucket's hydration of that namespace is at least as new; resolves the bytes written (KV value + object, if any), or undefined when not placed. */
  publishHydration(snapshot: NamespaceSnapshot): Promise<number | undefined>;
  /**
   * Puts a delta unless the bucket's delta of that namespace is at least as new (compare-and-set on
   * the delta key, retried on conflict); resolves the bytes written, or undefined. The delta is sent
   * on the namespace's live subject first, whether the bucket takes it or not.
   */
  publishDelta(delta: SnapshotDelta): Promise<number | undefined>;
  /**
   * Sends a delta on the live subject only, for a publisher whose bucket write is held up (a
   * stream electing its leader); resolves the bytes sent, or undefined when it was not sent
   * (larger than one message, or envelope format 1, which has no deltas).
   */
  publishLive(delta: SnapshotDelta): Promise<number | undefined>;
  /** The namespace was deleted at `revision`: deletes its hydration and delta keys (and object) unless the bucket holds something newer. */
  remove(namespaceKey: string, revision: number): Promise<void>;
  /** The newest revision the bucket holds per namespace (hydration or delta, whichever is newer). */
  revisions(): Promise<Map<string, number>>;
  /** The bucket's hydration of one namespace, with its delta when the delta's revision is newer; undefined when absent. */
  get(namespaceKey: string): Promise<CurrentSnapshot | undefined>;
  /**
   * Delivers every entry held (hydrations and deltas, in stream order), then calls onInitialSynced
   * once, then each change in order; `onEntry` may return a promise, which is awaited before the
   * next entry. Keeps following through outages. Entries' `read()` decode lazily. A value that is
   * not a well-formed envelope of its key is skipped with a warning; a well-formed one whose payload
   * is corrupt is delivered, and its `read()` rejects. Deleting a delta key alone delivers nothing.
   * Deltas heard on the live subjects are delivered too, as they arrive, marked `live` (the same
   * delta comes again from the bucket); they are not ordered with the bucket's entries.
   */
  watch(onEntry: (entry: BucketEntry) => void | Promise<void>, onInitialSynced: () => void): Promise<SnapshotWatch>;
  status(): BusStatus;
  /** Hears every change of connection status (e.g. 'reconnecting' → 'connected'), so callers can log, count and catch up after an outage. */
  onStatus(listener: (status: BusStatus) => void): void;
  close(): Promise<void>;
}

/** Opens a bus; it connects (and reconnects) in the background, so it works while NATS starts. */
export function openSnapshotBus(options: SnapshotBusOptions): SnapshotBus {
  const bucket = options.bucket ?? 'ensign_snapshots';
  const objectStoreName = options.objectStore ?? 'ensign_snapshot_docs';
  const logger = options.logger;
  const retryWait = options.reconnectTimeWaitMs ?? 250;
  const replicas = options.replicas ?? 1;
  const connection = new HealingConnection({ url: options.url, name: options.name, reconnectTimeWaitMs: retryWait, logger });
  const watches = new Set<KvFollow>();
  const liveWatches = new Set<LiveSubscription>();
  const live = liveDeltas({ bucket, ready: connection.ready, logger });
  const handles = openedOnce(async (): Promise<BucketHandles> => {
    const nc = await connection.ready;
    const js = nc.jetstream({ timeout: JETSTREAM_TIMEOUT_MS });
    const kv = await js.views.kv(bucket, { history: 1, replicas });
    const os = await js.views.os(objectStoreName, { replicas });
    if (replicas > 1) await raiseReplicas(nc, [`KV_${bucket}`, `OBJ_${objectStoreName}`], replicas, logger);
    return { kv, os };
  });
  const context: BucketContext = { handles, logger, maxInlineBytes: options.maxInlineBytes, writeVersion: options.envelopeVersion ?? ENVELOPE_VERSION, newerSeen: new Set(), publishLive: live.publish };
  const fetchObject = async (name: string): Promise<Uint8Array | null> => (await handles()).os.getBlob(name);

  async function watch(onEntry: (entry: BucketEntry) => void | Promise<void>, onInitialSynced: () => void): Promise<SnapshotWatch> {
    async function handOn(entry: BucketEntry): Promise<void> {
      try {
        await onEntry(entry);
      } catch (err) {
        // The watch goes on: one failing entry must not hold every later one back.
        logger?.error({ err, namespaceKey: entry.namespaceKey, kind: entry.kind }, 'snapshot watcher failed on an entry');
      }
    }

    async function deliver(entry: KvEntry): Promise<void> {
      const key = parseKvKey(entry.key);
      if (key === undefined) return;
      if (entry.operation !== 'PUT') {
        // Only the hydration's deletion means the namespace is gone; `remove` deletes it last.
        if (key.kind === 'hydration') await handOn({ kind: 'delete', namespaceKey: key.namespaceKey });
        return;
      }
      const envelope = heldEnvelope(context, entry, key);
      if (envelope !== undefined) await handOn(entryOf(envelope, fetchObject));
    }

    const liveWatch = live.subscribe((envelope) => handOn(liveEntryOf(envelope)));
    liveWatches.add(liveWatch);
    const follow = followKv({
      open: async () => (await handles()).kv,
      key: NAMESPACE_KEYS,
      deliver,
      onInitialSynced,
      what: 'snapshot watch',
      bucket,
      logger,
      retryWaitMs: retryWait,
      registry: watches,
      onReconnect: (reconnected) => connection.onReconnect(reconnected),
      onClusterChange: (changed) => connection.onClusterChange(changed),
    });
    return {
      async stop() {
        liveWatch.stop();
        liveWatches.delete(liveWatch);
        await follow.stop();
      },
    };
  }

  return {
    publishHydration: (snapshot) => publishHydration(context, snapshot),
    publishDelta: (delta) => publishDelta(context, delta),
    publishLive: (delta) => publishLiveDelta(context, delta),
    remove: (namespaceKey, revision) => removeNamespace(context, namespaceKey, revision),
    revisions: () => heldRevisions(context),
    get: (namespaceKey) => currentSnapshot(context, namespaceKey),
    watch,
    status: () => connection.status(),
    onStatus: (listener) => void connection.onStatus(listener),
    async close() {
      for (const liveWatch of liveWatches) liveWatch.stop();
      await Promise.all([...watches].map((w) => w.stop()));
      await connection.close();
    },
  };
}
