/** What the snapshot bus's reads and writes share: the bucket, its object store, and how envelopes are checked. */
import type { KV, KvEntry, ObjectStore } from 'nats';
import type { BusLogger } from './bus-logger.js';
import { ENVELOPE_VERSION, EnvelopeError, type EnvelopeVersion, NewerEnvelopeError, parseEnvelope, type SnapshotEnvelope } from './envelope.js';
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
  /** The envelope format this process writes (`nats.envelope_version`). */
  writeVersion: EnvelopeVersion;
  /** The newer formats already logged, so each is logged once. */
  newerSeen: Set<number>;
  /** Sends an encoded delta envelope on the namespace's live subject (live-deltas.ts); false when not sent. Never throws. */
  publishLive: (namespaceKey: string, value: Uint8Array) => Promise<boolean>;
}

/** Logs, once per format, that the bucket holds envelopes newer than this release reads. */
function noticeNewer(context: BucketContext, err: NewerEnvelopeError, key: string): void {
  if (context.newerSeen.has(err.version)) return;
  context.newerSeen.add(err.version);
  context.logger?.warn(
    { key, version: err.version },
    `the bucket holds snapshot envelopes of format ${err.version}, newer than this release reads: they are skipped, what is held keeps being served, and they are never written over; upgrade this process`,
  );
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

/** What is known of a key's value: its revision and format, and the envelope when this release reads it. */
export interface HeldValue<K extends KeyKind> {
  revision: number;
  version: number;
  envelope?: EnvelopeOf<K>;
}

/**
 * The value under a namespace key: undefined for an absent or deleted key, and (with a warning) for
 * a value that is not an envelope of that key, which a write replaces. An envelope of a newer
 * format (logged once) comes without `envelope`, with its revision, or -1 when it names none.
 */
export function heldValue<K extends KeyKind>(context: BucketContext, entry: KvEntry | null, key: { namespaceKey: string; kind: K }): HeldValue<K> | undefined {
  if (entry === null || entry.operation !== 'PUT') return undefined;
  try {
    const envelope = envelopeAt(key, entry.value);
    return { revision: envelope.revision, version: envelope.v, envelope };
  } catch (err) {
    if (err instanceof NewerEnvelopeError) {
      noticeNewer(context, err, entry.key);
      return { revision: err.revision ?? -1, version: err.version };
    }
    context.logger?.warn({ err, key: entry.key, seq: entry.revision }, 'unreadable snapshot envelope skipped');
    return undefined;
  }
}

/** The envelope an entry read from a namespace key holds, when this release reads it (see `heldValue`). */
export function heldEnvelope<K extends KeyKind>(context: BucketContext, entry: KvEntry | null, key: { namespaceKey: string; kind: K }): EnvelopeOf<K> | undefined {
  return heldValue(context, entry, key)?.envelope;
}

/**
 * Whether a writer must leave the value alone: it is of a format newer than this release reads, so
 * it may carry what this release's snapshot of the database would lose. (A format this release
 * reads carries nothing more than the one it writes, so either may replace the other.)
 */
export const newerFormat = (held: { version: number } | undefined): boolean => held !== undefined && held.version > ENVELOPE_VERSION;

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
