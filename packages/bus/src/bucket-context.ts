/** What the snapshot bus's reads and writes share: the bucket, its object store, and how envelopes are checked. */
import type { KV, KvEntry, ObjectStore } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { EnvelopeError, parseEnvelope, type SnapshotEnvelope } from './envelope.js';
import type { KeyKind } from './keys.js';

export interface BucketHandles {
  kv: KV;
  os: ObjectStore;
}

export interface BucketContext {
  /** The bucket and object store, created when missing; rejects while NATS is unreachable. */
  handles: () => Promise<BucketHandles>;
  logger: BusLogger | undefined;
  maxInlineBytes: number | undefined;
}

/** The envelope kind a key of that kind holds. */
export type EnvelopeOf<K extends KeyKind> = Extract<SnapshotEnvelope, { kind: K }>;

/** The envelope under a namespace key; throws `EnvelopeError` unless it is well formed and belongs there. */
export function envelopeAt<K extends KeyKind>(key: { namespaceKey: string; kind: K }, value: Uint8Array): EnvelopeOf<K> {
  const envelope = parseEnvelope(value);
  if (envelope.kind !== key.kind || envelope.namespace !== key.namespaceKey) {
    throw new EnvelopeError(`a ${envelope.kind} of ${envelope.namespace} is under the ${key.kind} key of ${key.namespaceKey}`);
  }
  return envelope as EnvelopeOf<K>;
}

/**
 * The envelope an entry read from a namespace key holds; undefined for an absent or deleted key,
 * and (with a warning) for a value that is not an envelope of that key, which a write replaces.
 */
export function heldEnvelope<K extends KeyKind>(
  context: BucketContext,
  entry: KvEntry | null,
  key: { namespaceKey: string; kind: K },
): EnvelopeOf<K> | undefined {
  if (entry === null || entry.operation !== 'PUT') return undefined;
  try {
    return envelopeAt(key, entry.value);
  } catch (err) {
    context.logger?.warn({ err, key: entry.key, seq: entry.revision }, 'unreadable snapshot envelope skipped');
    return undefined;
  }
}

/** The object a hydration envelope references, if any. */
export const objectOf = (envelope: SnapshotEnvelope | undefined): string | undefined =>
  envelope?.kind === 'hydration' ? envelope.objectRef : undefined;

/** Deletes a replaced document; a failure only leaves garbage behind, so it is logged, not thrown. */
export async function dropObject(context: BucketContext, os: ObjectStore, name: string | undefined): Promise<void> {
  if (name === undefined) return;
  await os.delete(name).then(
    () => undefined,
    (err: unknown) => context.logger?.warn({ err, object: name }, 'could not delete an old snapshot document'),
  );
}
