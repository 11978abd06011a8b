/** What a watcher is handed for one change of the bucket, decoded only when it asks. */
import type { NamespaceSnapshot, SnapshotDelta } from '@ensign/snapshots';
import type { DeltaEnvelope, HydrationEnvelope } from './envelope.js';
import { type ObjectFetcher, readDelta, readHydration } from './envelope-codec.js';

/**
 * One entry of the bucket. `read()` gunzips and parses the payload (fetching the object of a large
 * hydration) on each call, so a watcher that already holds that revision never pays for it; it
 * rejects with `EnvelopeError` when the payload is corrupt or its object gone.
 */
export type BucketEntry =
  | { kind: 'hydration'; namespaceKey: string; revision: number; read(): Promise<NamespaceSnapshot> }
  | {
      kind: 'delta';
      namespaceKey: string;
      revision: number;
      baseRevision: number;
      /** Heard on the live subject rather than read from the bucket, where the same delta follows. */
      live?: true;
      read(): Promise<SnapshotDelta>;
    }
  | { kind: 'delete'; namespaceKey: string };

/** The entry of a well-formed envelope, its payload still unread. */
export function entryOf(envelope: HydrationEnvelope | DeltaEnvelope, fetchObject: ObjectFetcher): BucketEntry {
  const { namespace: namespaceKey, revision } = envelope;
  if (envelope.kind === 'hydration') return { kind: 'hydration', namespaceKey, revision, read: () => readHydration(envelope, fetchObject) };
  return { kind: 'delta', namespaceKey, revision, baseRevision: envelope.baseRevision, read: () => readDelta(envelope) };
}

/** The entry of a delta heard on the live subject, its payload still unread. */
export function liveEntryOf(envelope: DeltaEnvelope): BucketEntry {
  const { namespace: namespaceKey, revision, baseRevision } = envelope;
  return { kind: 'delta', namespaceKey, revision, baseRevision, live: true, read: () => readDelta(envelope) };
}
