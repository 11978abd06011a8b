/**
 * A snapshot as Ensign sends it: the document, and what says which version it is. Ensign's format
 * (`?format=ensign`) adds the namespace revision and the server's bucketing hash; a stream message
 * adds its digest, a polled snapshot has it as its ETag. Flipt's plain document has none of them.
 */
import type { HashMode, SnapshotDocument } from '@ensign/engine';

export interface ReceivedSnapshot {
  document: SnapshotDocument;
  /** The namespace's revision, when the server says it: a snapshot older than the one held is ignored. */
  revision: number | undefined;
  /** The hash the server buckets with, when it says it. */
  hash: HashMode | undefined;
  /** The stream digest or ETag of this state, when known. */
  digest: string | undefined;
}

/** Thrown for a body that is not a snapshot document at all; the engine checks the rest when compiling. */
export class NotASnapshotError extends Error {
  override readonly name = 'NotASnapshotError';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a parsed JSON body: a document, or a stream message's `result` (the digest beside its flags). */
export function receivedSnapshot(value: unknown, etag?: string): ReceivedSnapshot {
  const body = isObject(value) && isObject(value.result) ? value.result : value;
  if (!isObject(body) || !isObject(body.namespace) || typeof body.namespace.key !== 'string' || !Array.isArray(body.flags)) {
    throw new NotASnapshotError('not a snapshot document: expected {"namespace": {"key": …}, "flags": […]}');
  }
  const { revision, hash, digest } = body;
  return {
    document: { namespace: { key: body.namespace.key }, flags: body.flags as SnapshotDocument['flags'] },
    revision: Number.isSafeInteger(revision) ? (revision as number) : undefined,
    hash: hash === 'murmur3' || hash === 'crc32' ? hash : undefined,
    digest: typeof digest === 'string' && digest !== '' ? digest : etag,
  };
}
