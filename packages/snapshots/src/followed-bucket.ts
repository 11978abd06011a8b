/** What a follower needs of the snapshot bucket (`@ensign/bus`'s `SnapshotBus` has it). */
import type { NamespaceSnapshot } from '@ensign/engine';
import type { SnapshotDelta } from './snapshot-delta.js';

/** One entry of the bucket, decoded only when `read` is called. */
export type FollowedEntry =
  | { kind: 'hydration'; namespaceKey: string; revision: number; read(): Promise<NamespaceSnapshot> }
  | {
      kind: 'delta';
      namespaceKey: string;
      revision: number;
      baseRevision: number;
      /** Sent over core NATS ahead of the bucket, which carries the same delta durably. */
      live?: boolean;
      read(): Promise<SnapshotDelta>;
    }
  | { kind: 'delete'; namespaceKey: string };

export interface FollowedBucket {
  watch(onEntry: (entry: FollowedEntry) => void | Promise<void>, onInitialSynced: () => void): Promise<{ stop(): Promise<void> }>;
  /** The namespace's hydration, and its delta when newer; undefined when the bucket holds none. */
  get(namespaceKey: string): Promise<{ hydration: NamespaceSnapshot; delta?: SnapshotDelta } | undefined>;
}
