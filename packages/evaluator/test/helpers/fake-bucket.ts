/** An in-memory stand-in for the NATS snapshot bucket, as `NatsSnapshotSource` reads it. */
import type { NamespaceSnapshot } from '@ensign/engine';
import type { FollowedEntry, SnapshotDelta } from '@ensign/snapshots';
import type { SnapshotReader } from '../../src/nats-snapshot-source.js';

const hydrationOf = (snapshot: NamespaceSnapshot): FollowedEntry => ({
  kind: 'hydration',
  namespaceKey: snapshot.namespaceKey,
  revision: snapshot.revision,
  read: async () => snapshot,
});

/**
 * A bucket whose watch delivers every entry, then the sync, then each change; `get` records what
 * it was asked for and can be held back (`holdGets`) or made to fail (`failGets`).
 */
export class FakeBucket implements SnapshotReader {
  private readonly entries = new Map<string, NamespaceSnapshot>();
  private listener: ((entry: FollowedEntry) => void | Promise<void>) | undefined;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  /** Every namespace `get` was called for, in order. */
  readonly gets: string[] = [];
  /** When set, `get` rejects with it. */
  failGets: Error | undefined;

  constructor(snapshots: NamespaceSnapshot[] = []) {
    for (const snapshot of snapshots) this.entries.set(snapshot.namespaceKey, snapshot);
  }

  async watch(onChange: (entry: FollowedEntry) => void | Promise<void>, onInitialSynced: () => void): Promise<{ stop(): Promise<void> }> {
    for (const snapshot of this.entries.values()) await onChange(hydrationOf(snapshot));
    onInitialSynced();
    this.listener = onChange;
    return {
      stop: async () => {
        this.listener = undefined;
      },
    };
  }

  async get(namespaceKey: string): Promise<{ hydration: NamespaceSnapshot; delta?: SnapshotDelta } | undefined> {
    this.gets.push(namespaceKey);
    if (this.gate !== undefined) await this.gate;
    if (this.failGets !== undefined) throw this.failGets;
    const hydration = this.entries.get(namespaceKey);
    return hydration === undefined ? undefined : { hydration };
  }

  /** Stores a snapshot and announces it to the watcher. */
  put(snapshot: NamespaceSnapshot): Promise<void> {
    this.entries.set(snapshot.namespaceKey, snapshot);
    return this.announce(snapshot);
  }

  /** Announces a snapshot to the watcher without storing it (an old envelope delivered late). */
  announce(snapshot: NamespaceSnapshot): Promise<void> {
    return Promise.resolve(this.listener?.(hydrationOf(snapshot)));
  }

  /** Deletes a namespace and announces it. */
  remove(namespaceKey: string): Promise<void> {
    this.entries.delete(namespaceKey);
    return Promise.resolve(this.listener?.({ kind: 'delete', namespaceKey }));
  }

  /** Makes every `get` wait until `releaseGets`. */
  holdGets(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  releaseGets(): void {
    this.openGate?.();
    this.gate = undefined;
  }
}
