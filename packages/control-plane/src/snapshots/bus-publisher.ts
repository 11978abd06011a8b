/**
 * Publishes this control plane's versions to the snapshot bucket without holding up the writes
 * that made them: per namespace at most one publish runs, and a burst of writes folds into one. A
 * publish is a small delta (every flag changed since the bucket's hydration) unless the changes are
 * not known or the deltas sent since the last hydration add up to its size; then the whole
 * namespace goes as a new hydration (compaction), after the delta of its changes when they are
 * known, so that evaluators following the bucket never decode it. Namespaces whose changes sat out
 * of a hydration for `compactAfterMs` are compacted by the schedule. A write made while its
 * namespace's publish runs is sent over the live subject at once (its bucket write waits in the
 * lane, which may be waiting out an election of the bucket's stream leader for seconds).
 */
import { KeyedLanes, traced } from '@ensign/core';
import type { SnapshotDelta, SnapshotVersion } from '@ensign/snapshots';
import type { NamespaceSnapshot } from '@ensign/engine';
import type { Logger } from 'pino';
import type { DeltaTracker } from './delta-tracker.js';

/** What the publisher needs of the snapshot bus (`@ensign/bus`'s `SnapshotBus` has it). */
export interface PublishingBus {
  publishHydration(snapshot: NamespaceSnapshot): Promise<number | undefined>;
  publishDelta(delta: SnapshotDelta): Promise<number | undefined>;
  /** Sends a delta to the followers without writing the bucket (the bus's live subject). */
  publishLive?(delta: SnapshotDelta): Promise<number | undefined>;
  remove(namespaceKey: string, revision: number): Promise<void>;
}

/** Running totals since start, for `/metrics` and the write benchmark. */
export interface PublishCounts {
  hydrations: number;
  deltas: number;
  hydrationBytes: number;
  deltaBytes: number;
  failures: number;
}

/** A delta naming more flags than this goes as a hydration instead. */
const MAX_DELTA_FLAGS = 2000;

export interface BusPublisherOptions {
  bus: PublishingBus;
  tracker: DeltaTracker;
  /** The version this instance holds now (the newest; a burst publishes only the last). */
  current: (namespaceKey: string) => SnapshotVersion | undefined;
  logger: Logger;
}

export class BusPublisher {
  readonly counts: PublishCounts = { hydrations: 0, deltas: 0, hydrationBytes: 0, deltaBytes: 0, failures: 0 };
  private readonly lanes = new KeyedLanes();
  /** Live sends, folded per namespace like the publishes, but never held up by the bucket. */
  private readonly liveLanes = new KeyedLanes();
  /** Namespaces whose publish is running. */
  private readonly running = new Set<string>();
  /** Namespaces whose latest publish failed: the bucket may be behind for them. */
  private readonly failed = new Set<string>();
  /** Per namespace, when the oldest change not yet in the bucket asked to be published. */
  private readonly pendingSince = new Map<string, number>();
  private lagListener: ((ms: number) => void) | undefined;

  constructor(private readonly options: BusPublisherOptions) {}

  /** Publishes the namespace's current version soon; never throws. */
  publish(namespaceKey: string, compact = false): void {
    if (!this.pendingSince.has(namespaceKey)) this.pendingSince.set(namespaceKey, performance.now());
    if (this.running.has(namespaceKey)) this.liveLanes.run(namespaceKey, () => this.sendLive(namespaceKey));
    this.lanes.run(namespaceKey, async () => {
      this.running.add(namespaceKey);
      try {
        await traced('ensign.snapshot.publish', { 'ensign.namespace': namespaceKey }, () => this.publishNow(namespaceKey, compact));
      } finally {
        this.running.delete(namespaceKey);
      }
    });
  }

  /** Hears, after each successful publish, how long its oldest change waited to reach the bucket. */
  onLag(listener: (ms: number) => void): void {
    this.lagListener = listener;
  }

  remove(namespaceKey: string, revision: number): void {
    this.options.tracker.forget(namespaceKey);
    this.lanes.run(namespaceKey, async () => {
      try {
        await this.options.bus.remove(namespaceKey, revision);
        this.failed.delete(namespaceKey);
      } catch (err) {
        this.fail(namespaceKey, revision, err);
      }
    });
  }

  /** Namespaces whose latest publish failed. */
  lagging(): string[] {
    return [...this.failed];
  }

  /** Resolves once every publish asked for so far has finished (or failed and been logged). */
  settled(): Promise<void> {
    return this.lanes.settled();
  }

  private async publishNow(namespaceKey: string, compact: boolean): Promise<void> {
    const { tracker, current, bus } = this.options;
    const since = this.pendingSince.get(namespaceKey);
    this.pendingSince.delete(namespaceKey);
    const version = current(namespaceKey);
    if (version === undefined) return;
    const track = tracker.get(namespaceKey);
    if (version.revision <= track.published && !compact) return;
    try {
      const known = tracker.knows(track) ? version.deltaFrom(track.base, track.changed.keys()) : undefined;
      const delta = known !== undefined && known.flags.length + known.removed.length <= MAX_DELTA_FLAGS ? known : undefined;
      const compacting = compact || track.deltaBytes >= track.hydrationBytes;
      if (delta !== undefined && !compacting && (await this.sendDelta(delta))) {
        // Sent (or the bucket already holds something newer).
      } else {
        // A compaction's changes go as a delta first: followers holding its base take them from it and
        // skip the hydration of the same revision unread, instead of decoding and verifying it whole.
        if (delta !== undefined && compacting && version.revision > track.published) await this.sendDelta(delta);
        const bytes = await bus.publishHydration(version.snapshot);
        if (bytes !== undefined) {
          this.counts.hydrations++;
          this.counts.hydrationBytes += bytes;
        }
        tracker.hydrated(namespaceKey, version.revision, bytes ?? track.hydrationBytes);
      }
      track.published = Math.max(track.published, version.revision);
      this.failed.delete(namespaceKey);
      if (since !== undefined) this.lagListener?.(performance.now() - since);
    } catch (err) {
      this.fail(namespaceKey, version.revision, err);
    }
  }

  /**
   * Sends the current version's delta from the bucket's hydration, live only. Its base is the
   * hydration known to be in the bucket even while a compaction waits in the lane, so every
   * follower that applied the earlier deltas can apply it. Not sendable (changes not known, too
   * many flags): the lane's publish brings it.
   */
  private async sendLive(namespaceKey: string): Promise<void> {
    const { bus, tracker, current, logger } = this.options;
    const version = current(namespaceKey);
    const track = tracker.get(namespaceKey);
    if (bus.publishLive === undefined || version === undefined || version.revision <= track.published || !tracker.knows(track)) return;
    const delta = version.deltaFrom(track.base, track.changed.keys());
    if (delta.flags.length + delta.removed.length > MAX_DELTA_FLAGS) return;
    try {
      await bus.publishLive(delta);
    } catch (err) {
      logger.debug({ err, namespace: namespaceKey, revision: version.revision }, 'live delta not sent; the bucket brings it');
    }
  }

  /** False when the delta could not go (too large for one message): the caller sends a hydration. */
  private async sendDelta(delta: SnapshotDelta): Promise<boolean> {
    let bytes: number | undefined;
    try {
      bytes = await this.options.bus.publishDelta(delta);
    } catch (err) {
      this.options.logger.debug({ err, namespace: delta.namespaceKey, revision: delta.revision }, 'delta not sent; a hydration goes instead');
      return false;
    }
    if (bytes !== undefined) {
      this.counts.deltas++;
      this.counts.deltaBytes += bytes;
      this.options.tracker.get(delta.namespaceKey).deltaBytes += bytes;
    }
    return true;
  }

  private fail(namespaceKey: string, revision: number, err: unknown): void {
    this.counts.failures++;
    if (!this.failed.has(namespaceKey)) this.options.logger.error({ err, namespace: namespaceKey, revision }, 'snapshot not published to NATS; it is retried when the connection is back and by the reconcile loop');
    this.failed.add(namespaceKey);
  }
}
