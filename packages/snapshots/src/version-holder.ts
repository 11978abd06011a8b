/** Where a follower keeps the versions it takes: every namespace (a control plane), or a bounded cache (an evaluator). */
import type { SnapshotVersion } from './snapshot-version.js';

export interface VersionHolder {
  /** The version held, without touching any recency. */
  peek(namespaceKey: string): SnapshotVersion | undefined;
  /** Keeps `version` unless one at least as new is held, or (a bounded cache) it does not fit and nobody waits for it; returns whether it was taken. */
  offer(version: SnapshotVersion): boolean;
  /** The namespace was deleted in the bucket. */
  drop(namespaceKey: string): void;
  /** Whether a namespace not held should be taken when the bucket announces it (a full cache says no). */
  wants(namespaceKey: string): boolean;
  /** Hears each revision the bucket announces, taken or not. */
  announce?(namespaceKey: string, revision: number): void;
  /** The newest revision announced of a namespace not held (what is older is stale). */
  announced?(namespaceKey: string): number | undefined;
}
