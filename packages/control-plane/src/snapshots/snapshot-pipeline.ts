/**
 * The control plane's write path after commit: each committed change is applied to the namespace's
 * version held in process (a new version made from the touched flags only), then handed to the bus
 * publisher when scaled out; other control planes' changes arrive through the bucket follower. A
 * write answers once its own namespace has reached its revision here.
 */
import type { CompileOptions } from '@ensign/engine';
import { SnapshotFollower, SnapshotVersion } from '@ensign/snapshots';
import type { FollowedBucket, VersionHolder } from '@ensign/snapshots';
import type { CommittedChange, NamespaceRevision, NamespaceState } from '@ensign/store';
import type { Logger } from 'pino';
import { BusPublisher, type PublishingBus } from './bus-publisher.js';
import { DeltaTracker } from './delta-tracker.js';
import { buildSnapshotFlags, buildVersion } from './snapshot-builder.js';
import { traced } from '@ensign/core';

/** What the pipeline reads from storage (the SQL store provides it). */
export interface SnapshotStateReader {
  /** A namespace's whole state at one revision; undefined when it does not exist. */
  readNamespaceState(namespaceKey: string): Promise<NamespaceState | undefined>;
  listNamespaceRevisions(): Promise<NamespaceRevision[]>;
}

/** Where the versions are held (the evaluator's in-process source). */
export interface PipelineHolder extends VersionHolder {
  remove(namespaceKey: string, revision: number): void;
  /** Every namespace held, with its revision. */
  revisions(): Map<string, number>;
  /** Resolves true once the namespace is at `revision` or later, false after `timeoutMs`. */
  reached(namespaceKey: string, revision: number, timeoutMs: number): Promise<boolean>;
  markReady(): void;
}

/** The snapshot bucket, when scaled out: published to and followed. */
export type PipelineBus = PublishingBus & FollowedBucket;

export interface SnapshotPipelineOptions {
  store: SnapshotStateReader;
  holder: PipelineHolder;
  compile: CompileOptions;
  logger: Logger;
  bus?: PipelineBus;
  /** How long changes may sit outside a hydration in the bucket before the schedule compacts them; 60 s when not set. */
  compactAfterMs?: number;
}

/** How many namespaces `loadAll` reads at once. */
const LOAD_CONCURRENCY = 4;

/** How long a change waits for the one before it (made through another control plane) before the namespace is read whole. */
const GAP_WAIT_MS = 250;

export class SnapshotPipeline {
  readonly publisher: BusPublisher | undefined;
  readonly follower: SnapshotFollower | undefined;
  /** Changes applied from the flags they touched, and namespaces read whole (start-up, gaps, reconcile). */
  readonly counts = { applied: 0, rebuilt: 0 };
  private readonly tracker = new DeltaTracker();
  /** Changes of this process being applied, per namespace. */
  private readonly applying = new Map<string, number>();
  private compactTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SnapshotPipelineOptions) {
    const { bus, holder, logger } = options;
    if (bus !== undefined) {
      this.publisher = new BusPublisher({ bus, tracker: this.tracker, current: (key) => holder.peek(key), logger });
      const tracker = this.tracker;
      this.follower = new SnapshotFollower({
        bucket: bus,
        holder,
        compile: options.compile,
        logger,
        confirmDelete: async (key) => (await options.store.readNamespaceState(key)) === undefined,
        // Only what verified tells the tracker what the bucket holds: a stray entry must not become a delta's base.
        verified: {
          hydration: (key, revision) => tracker.hydrated(key, revision),
          delta: (delta) => {
            tracker.hydrated(delta.namespaceKey, delta.baseRevision);
            tracker.wrote(delta.namespaceKey, delta.revision, [...delta.flags.map((f) => f.key), ...delta.removed]);
          },
        },
      });
    }
  }

  /** Reads and holds every namespace, as at start-up; rejects only when the namespaces cannot be listed. */
  async loadAll(): Promise<void> {
    const namespaces = await this.options.store.listNamespaceRevisions();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < namespaces.length) await this.rebuild((namespaces[next++] as NamespaceRevision).key, false);
    };
    await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, namespaces.length) }, worker));
    this.options.holder.markReady();
    this.options.logger.info({ namespaces: namespaces.length }, 'snapshots loaded');
  }

  /** Starts following the bucket and the compaction schedule (scaled out only). */
  async start(): Promise<void> {
    await this.follower?.start();
    if (this.publisher === undefined) return;
    const every = this.options.compactAfterMs ?? 60_000;
    this.compactTimer = setInterval(() => {
      for (const key of this.tracker.stale(every)) this.publisher?.publish(key, true);
    }, Math.max(10, Math.floor(every / 2)));
    this.compactTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.compactTimer);
    await this.follower?.stop();
  }

  /** Hears each committed change (wire it with `store.onCommit`); resolves once its namespace holds that revision. Never rejects. */
  readonly onCommit = async (change: CommittedChange): Promise<void> => {
    const key = change.record.namespaceKey;
    this.applying.set(key, (this.applying.get(key) ?? 0) + 1);
    try {
      await traced('ensign.snapshot.apply', { 'ensign.namespace': key, 'ensign.revision': change.record.revision }, () => this.apply(change));
    } finally {
      const left = (this.applying.get(key) ?? 1) - 1;
      if (left === 0) this.applying.delete(key);
      else this.applying.set(key, left);
    }
  };

  private readonly apply = async (change: CommittedChange): Promise<void> => {
    const { record, effect } = change;
    const key = record.namespaceKey;
    const { holder, logger } = this.options;
    try {
      if (effect.kind === 'namespace-deleted') {
        holder.remove(key, record.revision);
        this.publisher?.remove(key, record.revision);
        return;
      }
      if (effect.kind === 'namespace-created') {
        const created = SnapshotVersion.build(key, record.revision, [], this.options.compile);
        this.tracker.unknownUpTo(key, created.revision);
        this.hold(created, true);
        return;
      }
      let held = holder.peek(key);
      if ((held?.revision ?? -1) >= record.revision) return;
      if (held?.revision !== record.revision - 1) {
        await holder.reached(key, record.revision - 1, GAP_WAIT_MS);
        held = holder.peek(key);
        if ((held?.revision ?? -1) >= record.revision) return;
      }
      if (held === undefined || held.revision !== record.revision - 1) {
        await this.rebuild(key, true);
        return;
      }
      const flags = effect.kind === 'flags' ? buildSnapshotFlags(effect.state) : [];
      const removed = effect.kind === 'flags' ? effect.removed : [];
      const next = held.next(record.revision, flags, removed);
      this.tracker.wrote(key, record.revision, [...flags.map((f) => f.key), ...removed]);
      this.hold(next, true);
      this.counts.applied++;
    } catch (err) {
      logger.error({ err, namespace: key, revision: record.revision }, 'change not applied to the evaluation snapshot; the previous version stays');
    }
  };

  /** Reads a namespace whole and holds it; failures are logged. */
  async rebuild(namespaceKey: string, publish: boolean): Promise<SnapshotVersion | undefined> {
    const { store, logger, compile } = this.options;
    let state: NamespaceState | undefined;
    try {
      state = await store.readNamespaceState(namespaceKey);
    } catch (err) {
      logger.error({ err, namespace: namespaceKey }, 'snapshot not rebuilt: reading the namespace failed; the previous version stays');
      return undefined;
    }
    if (state === undefined) return undefined;
    try {
      const version = buildVersion(state, compile);
      this.counts.rebuilt++;
      this.tracker.unknownUpTo(namespaceKey, version.revision);
      this.hold(version, publish);
      return version;
    } catch (err) {
      logger.error({ err, namespace: namespaceKey, revision: state.revision }, 'snapshot not rebuilt: the namespace does not compile; the previous version stays');
      return undefined;
    }
  }

  /** Every namespace held here, with its revision. */
  heldRevisions(): Map<string, number> {
    return this.options.holder.revisions();
  }

  /**
   * Catches up with the revisions stored in the database, for writes this process did not make
   * (another server on the same database, `ensign import`): a namespace behind is read whole once
   * the change is not on its way here anyway, one gone from the database is dropped. `heldBefore`
   * is what was held before `stored` was read, so a namespace created here meanwhile is never
   * taken for deleted. Resolves the namespaces it changed; failures are logged.
   */
  async catchUp(stored: readonly NamespaceRevision[], heldBefore: ReadonlyMap<string, number>): Promise<string[]> {
    const { holder } = this.options;
    const behind = stored.filter(({ key, revision }) => (holder.peek(key)?.revision ?? -1) < revision);
    // A change of this process being applied, or one the bucket brings, is usually held within the
    // wait; without a bus, a change nobody here is applying can only be read from the database.
    const onItsWay = (key: string): boolean => this.follower !== undefined || this.applying.has(key);
    const reached = await Promise.all(behind.map(({ key, revision }) => (onItsWay(key) ? holder.reached(key, revision, GAP_WAIT_MS) : false)));
    const changed: string[] = [];
    for (const [i, { key }] of behind.entries()) {
      if (reached[i] === true) continue;
      if ((await this.rebuild(key, true)) !== undefined) changed.push(key);
    }
    const present = new Set(stored.map((n) => n.key));
    for (const [key, revision] of heldBefore) {
      if (present.has(key) || holder.peek(key) === undefined) continue;
      holder.remove(key, revision);
      if (holder.peek(key) === undefined) changed.push(key);
    }
    return changed;
  }

  /** Resolves once every publish asked for so far is done. */
  settled(): Promise<void> {
    return this.publisher?.settled() ?? Promise.resolve();
  }

  private hold(version: SnapshotVersion, publish: boolean): void {
    if (this.options.holder.offer(version) && publish) this.publisher?.publish(version.namespaceKey);
  }

  /**
   * Puts the namespace's current state into the bucket as a hydration: read whole when the version
   * held is behind the database. For the reconcile loop, after a publish was lost.
   */
  async republish(namespaceKey: string, storedRevision: number): Promise<void> {
    if ((this.options.holder.peek(namespaceKey)?.revision ?? -1) < storedRevision) await this.rebuild(namespaceKey, false);
    if (this.options.holder.peek(namespaceKey) === undefined) return;
    this.publisher?.publish(namespaceKey, true);
    await this.publisher?.settled();
  }
}
