/**
 * Follows the snapshot bucket into a holder: the one place where "a newer revision wins", "a
 * snapshot or delta that fails to compile or verify stays out, logged once" and "a gap is healed by
 * fetching the whole namespace" are decided, for control planes and evaluators alike.
 */
import { isNewer, traced } from '@ensign/core';
import type { CompileOptions } from '@ensign/engine';
import type { FollowedBucket, FollowedEntry } from './followed-bucket.js';
import type { SnapshotDelta } from './snapshot-delta.js';
import { Refusals } from './refusals.js';
import type { SnapshotLogger } from './snapshot-logger.js';
import { SnapshotVersion } from './snapshot-version.js';
import type { VersionHolder } from './version-holder.js';

export interface SnapshotFollowerOptions {
  bucket: FollowedBucket;
  holder: VersionHolder;
  compile: CompileOptions;
  logger: SnapshotLogger;
  /** Confirms a namespace deleted in the bucket is gone (a control plane asks its database); the delete is taken when absent. */
  confirmDelete?: (namespaceKey: string) => Promise<boolean>;
  /** Hears of each hydration and delta that verified (what a control plane's publisher may build on); nothing unverified reaches it. */
  verified?: VerifiedListener;
}

/** What verified entries tell a listener about the bucket. */
export interface VerifiedListener {
  hydration(namespaceKey: string, revision: number): void;
  delta(delta: SnapshotDelta): void;
}

/** Running totals since start, for `/metrics`. */
export interface FollowerCounts {
  /** Entries by what became of them. */
  hydrations: number;
  deltas: number;
  /** Not newer than the version held. */
  stale: number;
  /** Of a namespace the holder did not want (a full cache): only the revision was announced. */
  deferred: number;
  /** Did not verify or compile; the version held stays. */
  refused: number;
  /** Whole namespaces fetched, on a gap, a refused delta or a request for one not held. */
  fetches: number;
}

export class SnapshotFollower {
  readonly counts: FollowerCounts = { hydrations: 0, deltas: 0, stale: 0, deferred: 0, refused: 0, fetches: 0 };
  private readonly refusals: Refusals;
  private readonly loading = new Map<string, Promise<SnapshotVersion | undefined>>();
  /** Fetches in flight per namespace; a drop marks them, so what they read before it is not offered after it. */
  private readonly fetching = new Map<string, Set<{ dropped: boolean }>>();
  private watching: { stop(): Promise<void> } | undefined;
  private synced = false;

  constructor(private readonly options: SnapshotFollowerOptions) {
    this.refusals = new Refusals(options.logger);
  }

  /** Starts following; returns at once (the bus connects and retries in the background). */
  async start(onSynced: () => void = () => undefined): Promise<void> {
    this.watching = await this.options.bucket.watch(
      (entry) => this.take(entry),
      () => {
        this.synced = true;
        onSynced();
      },
    );
  }

  async stop(): Promise<void> {
    await this.watching?.stop();
    this.watching = undefined;
  }

  /** True once every entry the bucket held at start has been delivered. */
  ready(): boolean {
    return this.synced;
  }

  /**
   * Fetches a namespace whole (its hydration, then its delta) and offers it to the holder. Resolves
   * with what the holder then holds, undefined when the bucket has no such namespace; rejects when
   * the bucket cannot be read or the hydration is refused. Callers share concurrent loads themselves.
   */
  load(namespaceKey: string): Promise<SnapshotVersion | undefined> {
    return this.fetch(namespaceKey);
  }

  /** Whether that revision of the namespace was refused (it is not fetched again to be refused again). */
  refused(namespaceKey: string, revision: number): boolean {
    return this.refusals.refused(namespaceKey, revision);
  }

  /** Handles one entry of the watch (in a span when tracing is on); never throws. */
  take(entry: FollowedEntry): Promise<void> {
    return traced('ensign.snapshot.apply', { 'ensign.namespace': entry.namespaceKey, 'ensign.entry': entry.kind }, () => this.takeEntry(entry));
  }

  private async takeEntry(entry: FollowedEntry): Promise<void> {
    const { holder } = this.options;
    const key = entry.namespaceKey;
    if (entry.kind === 'delete') {
      await this.drop(key);
      return;
    }
    if (entry.kind === 'delta' && entry.live === true) {
      await this.takeLive(entry);
      return;
    }
    const held = holder.peek(key);
    if (!isNewer(entry.revision, held?.revision ?? holder.announced?.(key))) {
      this.counts.stale++;
      return;
    }
    holder.announce?.(key, entry.revision);
    if (held === undefined && !holder.wants(key)) {
      this.counts.deferred++;
      return;
    }
    if (this.refusals.refused(key, entry.revision)) return;
    if (entry.kind === 'hydration') {
      try {
        const version = await SnapshotVersion.hydrateInSlices(await entry.read(), this.options.compile, held);
        this.options.verified?.hydration(key, version.revision);
        if (holder.offer(version)) this.counts.hydrations++;
        else this.counts.deferred++;
      } catch (err) {
        this.counts.refused++;
        this.refusals.refuse(key, entry.revision, 'snapshot', err);
      }
      return;
    }
    if (held === undefined || entry.baseRevision > held.revision) {
      await this.heal(key, `revision ${held?.revision ?? 'none'} held, delta from ${entry.baseRevision}`);
      return;
    }
    try {
      const delta = await entry.read();
      const version = held.apply(delta);
      this.options.verified?.delta(delta);
      if (holder.offer(version)) this.counts.deltas++;
      else this.counts.stale++;
    } catch (err) {
      this.counts.refused++;
      this.refusals.refuse(key, entry.revision, 'delta', err);
      await this.heal(key, 'refused delta');
    }
  }

  /**
   * A delta sent ahead of the bucket moves only a namespace held on a base it covers. Anything else
   * (not held, a gap, not newer, a failure) is left to the bucket's entry of the same delta, which
   * follows: nothing is announced, refused or fetched for it, and a failure is logged at debug only.
   */
  private async takeLive(entry: Extract<FollowedEntry, { kind: 'delta' }>): Promise<void> {
    const { holder } = this.options;
    const key = entry.namespaceKey;
    const held = holder.peek(key);
    if (held === undefined || entry.baseRevision > held.revision || !isNewer(entry.revision, held.revision) || this.refusals.refused(key, entry.revision)) return;
    let version: SnapshotVersion;
    let delta: SnapshotDelta;
    try {
      delta = await entry.read();
      version = held.apply(delta);
    } catch (err) {
      this.options.logger.debug({ err, namespace: key, revision: entry.revision }, 'live delta not applied; the bucket brings it');
      return;
    }
    this.options.verified?.delta(delta);
    holder.announce?.(key, entry.revision);
    if (holder.offer(version)) this.counts.deltas++;
  }

  private async heal(namespaceKey: string, why: string): Promise<void> {
    let pending = this.loading.get(namespaceKey);
    if (pending === undefined) {
      pending = this.fetch(namespaceKey).finally(() => this.loading.delete(namespaceKey));
      this.loading.set(namespaceKey, pending);
    }
    try {
      await pending;
      this.options.logger.debug({ namespace: namespaceKey, why }, 'namespace fetched whole');
    } catch (err) {
      this.options.logger.warn({ err, namespace: namespaceKey, why }, 'namespace could not be fetched whole; the next entry retries');
    }
  }

  /**
   * A fetch runs beside the watch (a request for a namespace not held), so the namespace's deletion
   * may be taken while it reads: what it read may predate the deletion and is then not offered (a
   * later write comes through the watch, after the deletion).
   */
  private async fetch(namespaceKey: string): Promise<SnapshotVersion | undefined> {
    const token = { dropped: false };
    let tokens = this.fetching.get(namespaceKey);
    if (tokens === undefined) this.fetching.set(namespaceKey, (tokens = new Set()));
    tokens.add(token);
    try {
      return await this.fetchWhole(namespaceKey, token);
    } finally {
      tokens.delete(token);
      if (tokens.size === 0 && this.fetching.get(namespaceKey) === tokens) this.fetching.delete(namespaceKey);
    }
  }

  private async fetchWhole(namespaceKey: string, token: { dropped: boolean }): Promise<SnapshotVersion | undefined> {
    const { bucket, holder, compile } = this.options;
    const current = await bucket.get(namespaceKey);
    this.counts.fetches++;
    if (current === undefined) return undefined;
    const { hydration, delta } = current;
    let version: SnapshotVersion;
    try {
      version = await SnapshotVersion.hydrateInSlices(hydration, compile, holder.peek(namespaceKey));
    } catch (err) {
      this.counts.refused++;
      this.refusals.refuse(namespaceKey, hydration.revision, 'snapshot', err);
      throw err;
    }
    if (token.dropped) return holder.peek(namespaceKey);
    this.options.verified?.hydration(namespaceKey, version.revision);
    if (delta !== undefined && delta.revision > version.revision && !this.refusals.refused(namespaceKey, delta.revision)) {
      try {
        version = version.apply(delta);
        this.options.verified?.delta(delta);
      } catch (err) {
        this.counts.refused++;
        this.refusals.refuse(namespaceKey, delta.revision, 'delta', err);
      }
    }
    if (holder.offer(version)) this.counts.hydrations++;
    return holder.peek(namespaceKey) ?? version;
  }

  private async drop(namespaceKey: string): Promise<void> {
    const { holder, confirmDelete, logger } = this.options;
    if (holder.peek(namespaceKey) === undefined && confirmDelete !== undefined) {
      this.dropped(namespaceKey);
      return;
    }
    if (confirmDelete !== undefined) {
      try {
        if (!(await confirmDelete(namespaceKey))) return;
      } catch (err) {
        logger.warn({ err, namespace: namespaceKey }, 'namespace deleted in the bucket kept: its deletion could not be confirmed');
        return;
      }
    }
    this.refusals.forget(namespaceKey);
    this.dropped(namespaceKey);
  }

  private dropped(namespaceKey: string): void {
    for (const token of this.fetching.get(namespaceKey) ?? []) token.dropped = true;
    this.options.holder.drop(namespaceKey);
  }
}
