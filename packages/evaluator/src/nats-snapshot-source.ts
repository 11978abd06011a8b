import { isNewer, unavailable } from '@ensign/core';
import { type HashMode, SnapshotInvalidError } from '@ensign/engine';
import { SnapshotFollower, SnapshotMismatchError } from '@ensign/snapshots';
import type { FollowedBucket, SnapshotVersion, VersionHolder } from '@ensign/snapshots';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { HeldSnapshot, SnapshotSource } from './snapshot-source.js';

/** What the source needs of the bus: its watch, and one namespace whole on a miss or a gap (it never writes). */
export type SnapshotReader = FollowedBucket;

/** How long a request waits for a namespace fetched on a miss, unless set. */
export const DEFAULT_FETCH_TIMEOUT_MS = 5000;

export interface NatsSnapshotSourceOptions {
  bus: SnapshotReader;
  hash: HashMode;
  /** Most namespaces held; the least recently used one is dropped first. */
  maxNamespaces: number;
  /** Most approximate heap bytes held (documents and compiled forms); the least recently used namespace is dropped first. */
  maxBytes: number;
  logger: Logger;
  /** How long a request waits for a namespace fetched from the bucket; 5 s when not set. */
  fetchTimeoutMs?: number;
  /** Epoch milliseconds; `Date.now` when not set. */
  now?: () => number;
}

/** What `/health` and `/metrics` report of one held namespace. */
export interface HeldNamespaceStatus {
  revision: number;
  /** When this revision was taken, epoch milliseconds. */
  receivedAt: number;
}

/** Running totals since start, read by `/metrics`. */
export interface SnapshotSourceCounts {
  /** Hydrations and deltas arriving from the watch, by what became of them. */
  updates: { applied: number; stale: number; invalid: number; deferred: number };
  /** Fetches of a whole namespace from the bucket (a request for one not held, a gap, a refused delta), by outcome. */
  fetches: { loaded: number; absent: number; failed: number };
}

/** How full the cache is. */
export interface SnapshotSourceUsage {
  held: number;
  /** Namespaces the bucket holds, as last announced (held or not). */
  known: number;
  bytes: number;
}

interface Entry {
  version: SnapshotVersion;
  receivedAt: number;
}

/** A namespace streams watch: held outside the LRU, so it is never evicted while watched. */
interface Pinned {
  watchers: number;
  entry: Entry | undefined;
}

/**
 * The scaled-out evaluator's source: follows the snapshot bucket (hydrations, then deltas) through
 * the one `SnapshotFollower`, into an LRU cache bounded by count and approximate size. It remembers
 * the revision of every namespace the bucket announces, held or not: a request for one not held
 * fetches it (one fetch however many requests wait); one the bucket never announced costs no I/O.
 */
export class NatsSnapshotSource implements SnapshotSource {
  private readonly held: LRUCache<string, Entry>;
  /** The latest revision the bucket announced per namespace. */
  private readonly known = new Map<string, number>();
  private readonly follower: SnapshotFollower;
  private readonly now: () => number;
  private readonly fetchTimeoutMs: number;
  private readonly fetched = { loaded: 0, absent: 0, failed: 0 };
  /** Namespaces a request is fetching: they take every update, room or not. */
  private readonly loading = new Set<string>();
  /** Fetches in flight per namespace, shared by concurrent requests. */
  private readonly pending = new Map<string, Promise<HeldSnapshot | undefined>>();
  /** Streamed namespaces, outside the LRU's bounds (they are bounded by what clients watch). */
  private readonly pinned = new Map<string, Pinned>();
  private readonly listeners: Array<(namespaceKey: string) => void> = [];

  constructor(private readonly options: NatsSnapshotSourceOptions) {
    const maxBytes = options.maxBytes;
    // A namespace larger than the whole bound counts as exactly the bound: it is held alone rather than refetched on every request.
    this.held = new LRUCache<string, Entry>({ max: options.maxNamespaces, maxSize: maxBytes, sizeCalculation: (entry) => Math.min(entry.version.heldBytes, maxBytes) });
    this.now = options.now ?? Date.now;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    this.follower = new SnapshotFollower({ bucket: options.bus, holder: this.holder(), compile: { hash: options.hash }, logger: options.logger });
  }

  /** Starts following the bucket; returns at once (the bus connects and retries in the background). */
  async start(): Promise<void> {
    await this.follower.start(() => this.options.logger.info({ namespaces: this.held.size, known: this.known.size }, 'evaluation snapshots synced'));
  }

  async stop(): Promise<void> {
    await this.follower.stop();
  }

  get(namespaceKey: string): HeldSnapshot | undefined {
    if (this.pinned.size !== 0) {
      const pinned = this.pinned.get(namespaceKey);
      if (pinned !== undefined) return pinned.entry?.version;
    }
    return this.held.get(namespaceKey)?.version;
  }

  onChange(listener: (namespaceKey: string) => void): void {
    this.listeners.push(listener);
  }

  pin(namespaceKey: string): void {
    const pinned = this.pinned.get(namespaceKey);
    if (pinned !== undefined) {
      pinned.watchers++;
      return;
    }
    const entry = this.held.peek(namespaceKey);
    if (entry !== undefined) this.held.delete(namespaceKey);
    this.pinned.set(namespaceKey, { watchers: 1, entry });
  }

  /** The last watcher gone, the namespace goes back to the LRU (which may then drop others). */
  unpin(namespaceKey: string): void {
    const pinned = this.pinned.get(namespaceKey);
    if (pinned === undefined || --pinned.watchers > 0) return;
    this.pinned.delete(namespaceKey);
    if (pinned.entry !== undefined) this.held.set(namespaceKey, pinned.entry);
  }

  /** A namespace's entry, pinned or cached, without touching its recency. */
  private peekEntry(namespaceKey: string): Entry | undefined {
    return this.pinned.get(namespaceKey)?.entry ?? this.held.peek(namespaceKey);
  }

  private changed(namespaceKey: string): void {
    for (const listener of this.listeners) listener(namespaceKey);
  }

  ready(): boolean {
    return this.follower.ready();
  }

  /** True when the bucket announced the namespace: `load` may fetch it. */
  fetchable(namespaceKey: string): boolean {
    return this.known.has(namespaceKey);
  }

  /** Holds a namespace the bucket announced, fetching it when it is not held (one fetch however many requests wait). */
  load(namespaceKey: string): Promise<HeldSnapshot | undefined> {
    const held = this.get(namespaceKey);
    if (held !== undefined) return Promise.resolve(held);
    const announced = this.known.get(namespaceKey);
    if (announced === undefined) return Promise.resolve(undefined);
    if (this.follower.refused(namespaceKey, announced)) return Promise.reject(invalidSnapshot(namespaceKey, announced));
    let pending = this.pending.get(namespaceKey);
    if (pending === undefined) {
      pending = this.fetch(namespaceKey, announced).finally(() => this.pending.delete(namespaceKey));
      this.pending.set(namespaceKey, pending);
    }
    return pending;
  }

  private async fetch(namespaceKey: string, announced: number): Promise<HeldSnapshot | undefined> {
    let version: SnapshotVersion | undefined;
    this.loading.add(namespaceKey);
    try {
      version = await within(this.follower.load(namespaceKey), this.fetchTimeoutMs);
    } catch (err) {
      this.fetched.failed++;
      if (err instanceof SnapshotInvalidError || err instanceof SnapshotMismatchError) throw invalidSnapshot(namespaceKey, this.known.get(namespaceKey) ?? announced);
      this.options.logger.warn({ err, namespace: namespaceKey }, 'namespace could not be fetched from the snapshot bucket');
      throw unavailable(`namespace "${namespaceKey}" could not be fetched from the snapshot bucket`);
    } finally {
      this.loading.delete(namespaceKey);
    }
    // Gone from the bucket, or deleted (watch) while the fetch ran.
    if (version === undefined || !this.known.has(namespaceKey)) {
      this.fetched.absent++;
      return undefined;
    }
    this.fetched.loaded++;
    return this.get(namespaceKey) ?? version;
  }

  /** Revision and arrival time of every namespace held, without touching their recency. */
  namespaces(): Map<string, HeldNamespaceStatus> {
    const out = new Map<string, HeldNamespaceStatus>();
    for (const [key, entry] of this.held.entries()) out.set(key, { revision: entry.version.revision, receivedAt: entry.receivedAt });
    for (const [key, { entry }] of this.pinned) if (entry !== undefined) out.set(key, { revision: entry.version.revision, receivedAt: entry.receivedAt });
    return out;
  }

  usage(): SnapshotSourceUsage {
    let pinnedHeld = 0;
    let pinnedBytes = 0;
    for (const { entry } of this.pinned.values()) {
      if (entry === undefined) continue;
      pinnedHeld++;
      pinnedBytes += entry.version.heldBytes;
    }
    return { held: this.held.size + pinnedHeld, known: this.known.size, bytes: this.held.calculatedSize + pinnedBytes };
  }

  get counts(): SnapshotSourceCounts {
    const c = this.follower.counts;
    return { updates: { applied: c.hydrations + c.deltas, stale: c.stale, invalid: c.refused, deferred: c.deferred }, fetches: { ...this.fetched } };
  }

  /** The cache as the follower sees it: held and streamed namespaces take every update, others only while there is room. */
  private holder(): VersionHolder {
    return {
      peek: (key) => this.peekEntry(key)?.version,
      offer: (version) => {
        const key = version.namespaceKey;
        const current = this.peekEntry(key);
        if (!isNewer(version.revision, current?.version.revision)) return false;
        const pinned = this.pinned.get(key);
        if (pinned !== undefined) {
          pinned.entry = { version, receivedAt: this.now() };
          this.changed(key);
          return true;
        }
        // A namespace nobody holds or waits for is taken only while it fits.
        if (current === undefined && !this.loading.has(key) && this.held.calculatedSize + version.heldBytes > this.options.maxBytes) return false;
        if (version.heldBytes > this.options.maxBytes) {
          this.options.logger.warn({ namespace: key, bytes: version.heldBytes, maxBytes: this.options.maxBytes }, 'namespace larger than evaluator.max_bytes: it is held alone');
        }
        this.held.set(key, { version, receivedAt: this.now() });
        this.changed(key);
        return true;
      },
      drop: (key) => {
        this.known.delete(key);
        const pinned = this.pinned.get(key);
        const wasPinned = pinned?.entry !== undefined;
        if (pinned !== undefined) pinned.entry = undefined;
        if (this.held.delete(key) || wasPinned) {
          this.options.logger.debug({ namespace: key }, 'namespace dropped');
          this.changed(key);
        }
      },
      wants: (key) => this.held.has(key) || this.loading.has(key) || this.pinned.has(key) || (this.held.size < this.options.maxNamespaces && this.held.calculatedSize < this.options.maxBytes),
      announce: (key, revision) => {
        if (isNewer(revision, this.known.get(key))) this.known.set(key, revision);
      },
      announced: (key) => this.known.get(key),
    };
  }
}

const invalidSnapshot = (namespaceKey: string, revision: number) =>
  unavailable(`namespace "${namespaceKey}" cannot be evaluated: its snapshot at revision ${revision} does not compile`);

/** `promise`, or a rejection once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
