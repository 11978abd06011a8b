import type { NamespaceSnapshot } from '@ensign/engine';
import type { KV, KvEntry, ObjectStore } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { decodeEnvelope, encodeEnvelope, parseEnvelope } from './envelope.js';
import type { SnapshotEnvelope } from './envelope.js';
import { NAMESPACE_KEYS, namespaceKeyToKvKey, namespaceOfKey } from './keys.js';
import { HealingConnection } from './nats-connection.js';
import type { BusStatus } from './nats-connection.js';

export interface SnapshotBusOptions {
  /** NATS server URL, e.g. `nats://127.0.0.1:4222`. */
  url: string;
  /** KV bucket holding one envelope per namespace. */
  bucket?: string;
  /** Object Store holding documents too large to go inline. */
  objectStore?: string;
  maxInlineBytes?: number;
  logger?: BusLogger;
  /** Connection name shown by the NATS server's monitoring. */
  name?: string;
  /** Delay between connection attempts; 250 ms unless set. */
  reconnectTimeWaitMs?: number;
}

/** One change seen by a watcher: a namespace's new snapshot, or its deletion. */
export type SnapshotChange = { kind: 'put'; snapshot: NamespaceSnapshot } | { kind: 'delete'; namespaceKey: string };

export interface SnapshotWatch {
  stop(): Promise<void>;
}

/** Publishes and reads namespace snapshots in a JetStream KV bucket. */
export interface SnapshotBus {
  /** Puts a snapshot unless the bucket holds one at least as new for its namespace. */
  publish(snapshot: NamespaceSnapshot): Promise<void>;
  /** Deletes a namespace deleted at `revision`, unless the bucket holds a newer snapshot of it. */
  remove(namespaceKey: string, revision: number): Promise<void>;
  /** The revision the bucket holds per namespace, for reconciliation. */
  revisions(): Promise<Map<string, number>>;
  get(namespaceKey: string): Promise<NamespaceSnapshot | undefined>;
  /**
   * Delivers every namespace held, then `onInitialSynced` once, then changes in order. Returns at
   * once; while NATS is unreachable it keeps trying, and it resumes after an outage.
   */
  watch(onChange: (change: SnapshotChange) => void, onInitialSynced: () => void): Promise<SnapshotWatch>;
  status(): BusStatus;
  close(): Promise<void>;
}

/** Compare-and-set attempts before a publish gives up to concurrent writers. */
const MAX_ATTEMPTS = 10;
/** JetStream's "wrong last sequence" error: someone else wrote the key first. */
const WRONG_LAST_SEQUENCE = 10071;

interface Handles {
  kv: KV;
  os: ObjectStore;
}

function isConflict(err: unknown): boolean {
  return (err as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE;
}

/** Opens a bus; it connects (and reconnects) in the background, so it works while NATS starts. */
export function openSnapshotBus(options: SnapshotBusOptions): SnapshotBus {
  const bucket = options.bucket ?? 'ensign_snapshots';
  const objectStoreName = options.objectStore ?? 'ensign_snapshot_docs';
  const logger = options.logger;
  const retryWait = options.reconnectTimeWaitMs ?? 250;
  const connection = new HealingConnection({
    url: options.url,
    ...(options.name === undefined ? {} : { name: options.name }),
    reconnectTimeWaitMs: retryWait,
    ...(logger === undefined ? {} : { logger }),
  });
  const watches = new Set<SnapshotWatch>();
  let opened: Promise<Handles> | undefined;

  /** The bucket and object store, created when missing; a failed open is retried on next use. */
  function handles(): Promise<Handles> {
    opened ??= (async () => {
      const js = (await connection.ready).jetstream();
      const kv = await js.views.kv(bucket, { history: 1 });
      const os = await js.views.os(objectStoreName);
      return { kv, os };
    })();
    opened.catch(() => {
      opened = undefined;
    });
    return opened;
  }

  /** The envelope of a KV entry; undefined for deletes and for values that are not envelopes. */
  function envelopeOf(entry: KvEntry | null): SnapshotEnvelope | undefined {
    if (entry === null || entry.operation !== 'PUT') return undefined;
    try {
      return parseEnvelope(entry.value);
    } catch (err) {
      logger?.warn({ err, key: entry.key }, 'unreadable snapshot envelope in bucket');
      return undefined;
    }
  }

  function dropObject(os: ObjectStore, name: string | undefined): Promise<void> {
    if (name === undefined) return Promise.resolve();
    return os.delete(name).then(
      () => undefined,
      (err: unknown) => logger?.warn({ err, object: name }, 'could not delete an old snapshot document'),
    );
  }

  async function publish(snapshot: NamespaceSnapshot): Promise<void> {
    const { kv, os } = await handles();
    const key = namespaceKeyToKvKey(snapshot.namespaceKey);
    // Cheap early exit before compressing and uploading a document that would not be taken.
    if ((envelopeOf(await kv.get(key))?.revision ?? -1) >= snapshot.revision) return;
    const encoded = await encodeEnvelope(snapshot, options.maxInlineBytes === undefined ? {} : { maxInlineBytes: options.maxInlineBytes });
    if (encoded.object !== undefined) await os.putBlob({ name: encoded.object.name }, encoded.object.data);
    let placed = false;
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const current = await kv.get(key);
        const held = envelopeOf(current);
        if (held !== undefined && held.revision >= snapshot.revision) return;
        try {
          await kv.put(key, encoded.value, { previousSeq: current?.revision ?? 0 });
        } catch (err) {
          if (isConflict(err)) continue;
          throw err;
        }
        placed = true;
        await dropObject(os, held?.objectRef);
        return;
      }
      throw new Error(`publishing ${snapshot.namespaceKey}@${snapshot.revision}: too many concurrent writers`);
    } finally {
      if (!placed) await dropObject(os, encoded.object?.name);
    }
  }

  async function remove(namespaceKey: string, revision: number): Promise<void> {
    const { kv, os } = await handles();
    const key = namespaceKeyToKvKey(namespaceKey);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await kv.get(key);
      if (current === null || current.operation !== 'PUT') return;
      const held = envelopeOf(current);
      if (held !== undefined && held.revision > revision) return;
      try {
        await kv.delete(key, { previousSeq: current.revision });
      } catch (err) {
        if (isConflict(err)) continue;
        throw err;
      }
      await dropObject(os, held?.objectRef);
      return;
    }
    throw new Error(`removing ${namespaceKey}@${revision}: too many concurrent writers`);
  }

  async function get(namespaceKey: string): Promise<NamespaceSnapshot | undefined> {
    const { kv, os } = await handles();
    const key = namespaceKeyToKvKey(namespaceKey);
    const fetchObject = (name: string) => os.getBlob(name);
    for (let attempt = 0; ; attempt++) {
      const entry = await kv.get(key);
      if (entry === null || entry.operation !== 'PUT') return undefined;
      try {
        return await decodeEnvelope(entry.value, fetchObject);
      } catch (err) {
        // A newer envelope may have replaced this one and its document between the two reads.
        const now = await kv.get(key);
        if (attempt >= 3 || now === null || now.revision === entry.revision) throw err;
      }
    }
  }

  async function revisions(): Promise<Map<string, number>> {
    const { kv } = await handles();
    const result = new Map<string, number>();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const iter = await kv.watch({ key: NAMESPACE_KEYS, initializedFn: () => resolve() });
    void (async () => {
      for await (const entry of iter) {
        const envelope = envelopeOf(entry);
        if (envelope !== undefined) result.set(envelope.namespace, envelope.revision);
      }
      resolve();
    })().catch(reject);
    try {
      await done;
    } finally {
      iter.stop();
    }
    return result;
  }

  async function watch(onChange: (change: SnapshotChange) => void, onInitialSynced: () => void): Promise<SnapshotWatch> {
    let stopped = false;
    let synced = false;
    let stopCurrent: (() => void) | undefined;
    const markSynced = (): void => {
      if (synced || stopped) return;
      synced = true;
      onInitialSynced();
    };

    async function deliver(entry: KvEntry, os: ObjectStore): Promise<void> {
      const namespaceKey = namespaceOfKey(entry.key);
      if (namespaceKey === undefined) return;
      if (entry.operation !== 'PUT') {
        onChange({ kind: 'delete', namespaceKey });
        return;
      }
      try {
        onChange({ kind: 'put', snapshot: await decodeEnvelope(entry.value, (name) => os.getBlob(name)) });
      } catch (err) {
        // Skipped: a corrupt document is never handed on; a replaced one is followed by its successor.
        logger?.warn({ err, namespaceKey, seq: entry.revision }, 'snapshot envelope skipped');
      }
    }

    /** One watcher over the bucket; resolves when its iterator ends. */
    async function runOnce(): Promise<void> {
      const { kv, os } = await handles();
      let returned = false;
      let initializedEarly = false;
      const iter = await kv.watch({
        key: NAMESPACE_KEYS,
        initializedFn: () => {
          // Called in order through the iterator, or before `watch` returns with entries still queued.
          if (returned) markSynced();
          else initializedEarly = true;
        },
      });
      returned = true;
      stopCurrent = () => iter.stop();
      if (stopped) iter.stop();
      const target = initializedEarly ? iter.getReceived() : Infinity;
      let processed = 0;
      if (processed >= target) markSynced();
      for await (const entry of iter) {
        if (stopped) break;
        await deliver(entry, os);
        if (++processed >= target) markSynced();
      }
    }

    const loop = (async () => {
      while (!stopped) {
        try {
          await runOnce();
          if (!stopped) logger?.warn({ bucket }, 'snapshot watch ended, restarting');
        } catch (err) {
          if (stopped) return;
          logger?.warn({ err, bucket }, 'snapshot watch failed, retrying');
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, retryWait));
      }
    })();

    const handle: SnapshotWatch = {
      async stop() {
        stopped = true;
        stopCurrent?.();
        watches.delete(handle);
        await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 1000))]);
      },
    };
    watches.add(handle);
    return handle;
  }

  return {
    publish,
    remove,
    revisions,
    get,
    watch,
    status: () => connection.status(),
    async close() {
      await Promise.all([...watches].map((w) => w.stop()));
      await connection.close();
    },
  };
}
