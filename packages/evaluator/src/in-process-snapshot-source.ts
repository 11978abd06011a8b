import { isNewer } from '@ensign/core';
import type { SnapshotVersion, VersionHolder } from '@ensign/snapshots';
import type { SnapshotSource } from './snapshot-source.js';

/**
 * The control plane's own source: it holds every namespace, as the control plane applies its
 * writes and follows the bucket. A version not newer than the one held is ignored, so a slow path
 * can never put an older state back; a deleted namespace's revision is remembered for the same reason.
 */
export class InProcessSnapshotSource implements SnapshotSource, VersionHolder {
  private readonly held = new Map<string, SnapshotVersion>();
  /** Revisions of deleted namespaces, so a late version of one cannot bring it back. */
  private readonly removedAt = new Map<string, number>();
  private readonly waiters = new Map<string, Array<{ revision: number; resolve: (reached: boolean) => void }>>();
  private synced = false;
  private readonly listeners: Array<(namespaceKey: string) => void> = [];

  get(namespaceKey: string): SnapshotVersion | undefined {
    return this.held.get(namespaceKey);
  }

  peek(namespaceKey: string): SnapshotVersion | undefined {
    return this.held.get(namespaceKey);
  }

  ready(): boolean {
    return this.synced;
  }

  wants(): boolean {
    return true;
  }

  /** The revision held for a namespace (or at which it was deleted), or undefined. */
  revisionOf(namespaceKey: string): number | undefined {
    return this.held.get(namespaceKey)?.revision ?? this.removedAt.get(namespaceKey);
  }

  /** Every namespace held, with its revision. */
  revisions(): Map<string, number> {
    return new Map(Array.from(this.held, ([key, version]) => [key, version.revision]));
  }

  /** Holds a version unless one at least as new is held; returns whether it was taken. */
  offer(version: SnapshotVersion): boolean {
    const key = version.namespaceKey;
    if (!isNewer(version.revision, this.revisionOf(key))) return false;
    this.removedAt.delete(key);
    this.held.set(key, version);
    this.wake(key, version.revision);
    this.changed(key);
    return true;
  }

  /** Drops a deleted namespace unless a newer version of one re-created under that key is held. */
  remove(namespaceKey: string, revision: number): void {
    if (revision < (this.held.get(namespaceKey)?.revision ?? -1)) return;
    this.held.delete(namespaceKey);
    this.removedAt.set(namespaceKey, revision);
    this.wake(namespaceKey, revision);
    this.changed(namespaceKey);
  }

  /** The bucket deleted the namespace (its deletion confirmed): dropped at the revision held. */
  drop(namespaceKey: string): void {
    const held = this.held.get(namespaceKey);
    if (held !== undefined) this.remove(namespaceKey, held.revision);
  }

  /** Resolves true once the namespace is at `revision` or later, false after `timeoutMs` without. */
  reached(namespaceKey: string, revision: number, timeoutMs: number): Promise<boolean> {
    if ((this.revisionOf(namespaceKey) ?? -1) >= revision) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.waiters.get(namespaceKey) ?? [];
      const waiter = { revision, resolve: (reached: boolean) => resolve(reached) };
      list.push(waiter);
      this.waiters.set(namespaceKey, list);
      setTimeout(() => {
        const current = this.waiters.get(namespaceKey);
        const i = current?.indexOf(waiter) ?? -1;
        if (i < 0) return;
        current?.splice(i, 1);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  onChange(listener: (namespaceKey: string) => void): void {
    this.listeners.push(listener);
  }

  /** Every namespace is held here: nothing to pin. */
  pin(): void {}

  unpin(): void {}

  private changed(namespaceKey: string): void {
    for (const listener of this.listeners) listener(namespaceKey);
  }

  /** Called once every namespace has been loaded at start-up. */
  markReady(): void {
    this.synced = true;
  }

  private wake(namespaceKey: string, revision: number): void {
    const list = this.waiters.get(namespaceKey);
    if (list === undefined) return;
    const still = list.filter((w) => w.revision > revision);
    for (const w of list) if (w.revision <= revision) w.resolve(true);
    if (still.length === 0) this.waiters.delete(namespaceKey);
    else this.waiters.set(namespaceKey, still);
  }
}
