import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';
import { namespaceKeyToKvKey } from './keys.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Below NATS's default 1 MiB `max_payload`, leaving room for the envelope and headers. */
export const DEFAULT_MAX_INLINE_BYTES = 900 * 1024;

/**
 * The KV value of one namespace. The gzipped document is inline (base64) or, when too large for
 * one NATS message, in the Object Store under `objectRef`. `checksum` is the hex SHA-256 of the
 * document's JSON, so a reader can refuse a corrupt or mismatched document.
 */
export interface SnapshotEnvelope {
  v: 1;
  namespace: string;
  revision: number;
  checksum: string;
  encoding: 'gzip';
  document?: string;
  objectRef?: string;
}

/** What publishing one snapshot writes: the KV value, and the object to store first when there is one. */
export interface EncodedEnvelope {
  envelope: SnapshotEnvelope;
  value: Uint8Array;
  object?: { name: string; data: Uint8Array };
}

/** Thrown when an envelope is malformed or its document does not match its checksum. */
export class EnvelopeError extends Error {
  override readonly name = 'EnvelopeError';
}

/** Hex SHA-256 of a document's JSON, computed as the control plane's snapshot builder does. */
function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Builds the envelope of a snapshot; the document moves to an object when it would not fit inline. */
export async function encodeEnvelope(
  snapshot: NamespaceSnapshot,
  options: { maxInlineBytes?: number } = {},
): Promise<EncodedEnvelope> {
  const json = JSON.stringify(snapshot.document);
  if (sha256Hex(json) !== snapshot.checksum) {
    throw new EnvelopeError(`snapshot of ${snapshot.namespaceKey}@${snapshot.revision}: checksum does not match its document`);
  }
  const compressed = await gzipAsync(Buffer.from(json, 'utf8'));
  const header = {
    v: 1 as const,
    namespace: snapshot.namespaceKey,
    revision: snapshot.revision,
    checksum: snapshot.checksum,
    encoding: 'gzip' as const,
  };
  const inline: SnapshotEnvelope = { ...header, document: compressed.toString('base64') };
  const inlineValue = Buffer.from(JSON.stringify(inline), 'utf8');
  if (inlineValue.length <= (options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES)) {
    return { envelope: inline, value: inlineValue };
  }
  // A random suffix keeps two publishers of the same revision from deleting each other's object.
  const name = `${namespaceKeyToKvKey(snapshot.namespaceKey)}.${snapshot.revision}.${randomBytes(6).toString('hex')}`;
  const referenced: SnapshotEnvelope = { ...header, objectRef: name };
  return {
    envelope: referenced,
    value: Buffer.from(JSON.stringify(referenced), 'utf8'),
    object: { name, data: compressed },
  };
}

/** Parses and validates an envelope's fields without touching its document. */
export function parseEnvelope(bytes: Uint8Array): SnapshotEnvelope {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new EnvelopeError('envelope is not JSON');
  }
  const e = raw as Partial<SnapshotEnvelope> | null;
  if (
    e === null ||
    typeof e !== 'object' ||
    e.v !== 1 ||
    typeof e.namespace !== 'string' ||
    !Number.isSafeInteger(e.revision) ||
    typeof e.checksum !== 'string' ||
    e.encoding !== 'gzip' ||
    (typeof e.document === 'string') === (typeof e.objectRef === 'string')
  ) {
    throw new EnvelopeError('envelope is malformed');
  }
  return e as SnapshotEnvelope;
}

/** Reads the compressed document of an envelope that references the Object Store; null when it is gone. */
export type ObjectFetcher = (name: string) => Promise<Uint8Array | null>;

/**
 * The snapshot an envelope carries. Throws `EnvelopeError` when the envelope is malformed, its
 * object is missing, or the document does not match the checksum.
 */
export async function decodeEnvelope(bytes: Uint8Array, fetchObject?: ObjectFetcher): Promise<NamespaceSnapshot> {
  const envelope = parseEnvelope(bytes);
  let compressed: Uint8Array;
  if (envelope.document !== undefined) {
    compressed = Buffer.from(envelope.document, 'base64');
  } else {
    const ref = envelope.objectRef as string;
    if (fetchObject === undefined) throw new EnvelopeError(`envelope references object ${ref} and no object store was given`);
    const data = await fetchObject(ref);
    if (data === null) throw new EnvelopeError(`object ${ref} of ${envelope.namespace}@${envelope.revision} is missing`);
    compressed = data;
  }
  let json: Buffer;
  try {
    json = await gunzipAsync(compressed);
  } catch {
    throw new EnvelopeError(`document of ${envelope.namespace}@${envelope.revision} is not gzip`);
  }
  if (sha256Hex(json) !== envelope.checksum) {
    throw new EnvelopeError(`document of ${envelope.namespace}@${envelope.revision} does not match its checksum`);
  }
  return {
    namespaceKey: envelope.namespace,
    revision: envelope.revision,
    checksum: envelope.checksum,
    document: JSON.parse(json.toString('utf8')) as SnapshotDocument,
  };
}
