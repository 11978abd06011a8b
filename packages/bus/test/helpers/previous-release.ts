/**
 * The previous release's side of the bucket (envelope format 1, commit f875b43): how it wrote a
 * namespace's snapshot and how it read one, so tests can mix it with this release's bus.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';

const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The KV value the previous release put for a snapshot (inline). */
export function previousReleaseValue(document: SnapshotDocument, revision: number): Uint8Array {
  const json = JSON.stringify(document);
  const envelope = { v: 1, namespace: document.namespace.key, revision, checksum: sha256Hex(json), encoding: 'gzip', document: gzipSync(json).toString('base64') };
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/**
 * What the previous release made of a KV value: the snapshot, or a thrown error where it refused
 * it (any format but 1, a missing object, a document not matching its checksum).
 */
export async function previousReleaseRead(value: Uint8Array, fetchObject: (name: string) => Promise<Uint8Array | null>): Promise<NamespaceSnapshot> {
  const e = JSON.parse(Buffer.from(value).toString('utf8')) as Record<string, unknown>;
  if (
    e.v !== 1 ||
    typeof e.namespace !== 'string' ||
    !Number.isSafeInteger(e.revision) ||
    typeof e.checksum !== 'string' ||
    e.encoding !== 'gzip' ||
    (typeof e.document === 'string') === (typeof e.objectRef === 'string')
  ) {
    throw new Error('envelope is malformed');
  }
  const compressed = typeof e.document === 'string' ? Buffer.from(e.document, 'base64') : await fetchObject(e.objectRef as string);
  if (compressed === null) throw new Error(`object ${String(e.objectRef)} is missing`);
  const json = gunzipSync(compressed);
  if (sha256Hex(json) !== e.checksum) throw new Error('document does not match its checksum');
  return { namespaceKey: e.namespace, revision: e.revision as number, checksum: e.checksum, document: JSON.parse(json.toString('utf8')) as SnapshotDocument };
}
