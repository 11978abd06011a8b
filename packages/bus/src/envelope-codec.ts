/** Turning hydrations and deltas into envelopes (KV value, plus an object for large hydrations) and back. */
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { NamespaceSnapshot, SnapshotDelta, SnapshotDocument, SnapshotFlag } from '@ensign/snapshots';
import { snapshotChecksum } from '@ensign/snapshots/checksum';
import { DeltaTooLargeError, type DeltaEnvelope, ENVELOPE_VERSION, EnvelopeError, type EnvelopeVersion, type HydrationEnvelope, parseEnvelope, type SnapshotEnvelope } from './envelope.js';
import { DocumentLinesError, documentLines, parseDocumentLines } from './hydration-lines.js';
import { namespaceKeyToKvKey } from './keys.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * zlib's level for what is written. At 10,000 flags (7.6 MB of JSON) level 4 takes about 60 % of
 * the CPU of the default 6 for a 13 % larger result (benchmarks/README.md, bench:compaction figures).
 */
export const GZIP_LEVEL = 4;

const compress = (data: Buffer): Promise<Buffer> => gzipAsync(data, { level: GZIP_LEVEL });

/** Below NATS's default 1 MiB `max_payload`, leaving room for the envelope and headers. */
export const DEFAULT_MAX_INLINE_BYTES = 900 * 1024;

/** What publishing one envelope writes: the KV value, and the object to store first when there is one. */
export interface EncodedEnvelope {
  envelope: SnapshotEnvelope;
  value: Uint8Array;
  object?: { name: string; data: Uint8Array };
}

/** An envelope's content, once its payload is read. */
export type DecodedEnvelope = { kind: 'hydration'; snapshot: NamespaceSnapshot } | { kind: 'delta'; delta: SnapshotDelta };

/** Reads the compressed document of an envelope that references the Object Store; null when it is gone. */
export type ObjectFetcher = (name: string) => Promise<Uint8Array | null>;

/** What a delta's payload holds: the rest of the delta is in the envelope's header. */
interface DeltaPayload {
  flags: SnapshotFlag[];
  removed: string[];
}

const isDelta = (content: NamespaceSnapshot | SnapshotDelta): content is SnapshotDelta => !('document' in content);

const toBytes = (value: object): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/** The previous release's checksum: the hex SHA-256 of the document's JSON. */
const sha256Hex = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Options of `encodeEnvelope`. */
export interface EncodeOptions {
  maxInlineBytes?: number;
  /** The format written (`ENVELOPE_VERSION` unless set); format 1 carries hydrations only. */
  version?: EnvelopeVersion;
}

/**
 * Builds the envelope of a hydration or a delta. A hydration too large to go inline moves to an
 * object; a delta too large throws `DeltaTooLargeError`, since a hydration is then the cheaper
 * message. Format 1 has no deltas: a delta throws `EnvelopeError`, and a hydration goes instead.
 */
export async function encodeEnvelope(content: NamespaceSnapshot | SnapshotDelta, options: EncodeOptions = {}): Promise<EncodedEnvelope> {
  const maxInline = options.maxInlineBytes ?? DEFAULT_MAX_INLINE_BYTES;
  const version = options.version ?? ENVELOPE_VERSION;
  if (version === 1) {
    if (isDelta(content)) throw new EnvelopeError(`delta of ${content.namespaceKey}@${content.revision}: envelope format 1 has no deltas; a hydration goes instead`);
    return encodePreviousHydration(content, maxInline);
  }
  const header = { v: version, namespace: content.namespaceKey, revision: content.revision, checksum: content.checksum, encoding: 'gzip' as const };
  if (isDelta(content)) {
    if (!(content.baseRevision <= content.revision)) throw new EnvelopeError(`delta of ${content.namespaceKey}: base ${content.baseRevision} is after revision ${content.revision}`);
    const payload: DeltaPayload = { flags: content.flags, removed: content.removed };
    const compressed = await compress(toBytes(payload));
    const envelope: DeltaEnvelope = { ...header, kind: 'delta', baseRevision: content.baseRevision, document: compressed.toString('base64') };
    const value = toBytes(envelope);
    if (value.length > maxInline) throw new DeltaTooLargeError(value.length, maxInline, `${content.namespaceKey}@${content.revision}`);
    return { envelope, value };
  }
  const compressed = await compress(version === 3 ? documentLines(content.document) : toBytes(content.document));
  const inline: HydrationEnvelope = { ...header, kind: 'hydration', document: compressed.toString('base64') };
  const inlineValue = toBytes(inline);
  if (inlineValue.length <= maxInline) return { envelope: inline, value: inlineValue };
  // A random suffix keeps two publishers of the same revision from deleting each other's object.
  const name = `${namespaceKeyToKvKey(content.namespaceKey)}.${content.revision}.${randomBytes(6).toString('hex')}`;
  const referenced: HydrationEnvelope = { ...header, kind: 'hydration', objectRef: name };
  return { envelope: referenced, value: toBytes(referenced), object: { name, data: compressed } };
}

/** A hydration as the previous release wrote it: no kind, and the SHA-256 of the document's JSON as its checksum. */
async function encodePreviousHydration(snapshot: NamespaceSnapshot, maxInline: number): Promise<EncodedEnvelope> {
  const json = toBytes(snapshot.document);
  const compressed = await compress(json);
  const header = { v: 1 as const, namespace: snapshot.namespaceKey, revision: snapshot.revision, checksum: sha256Hex(json), encoding: 'gzip' as const };
  const inlineValue = toBytes({ ...header, document: compressed.toString('base64') });
  const envelope = (fields: object): HydrationEnvelope => ({ ...header, kind: 'hydration', ...fields });
  if (inlineValue.length <= maxInline) return { envelope: envelope({ document: compressed.toString('base64') }), value: inlineValue };
  const name = `${namespaceKeyToKvKey(snapshot.namespaceKey)}.${snapshot.revision}.${randomBytes(6).toString('hex')}`;
  return { envelope: envelope({ objectRef: name }), value: toBytes({ ...header, objectRef: name }), object: { name, data: compressed } };
}

/** The gunzipped payload of an envelope, as bytes. */
async function gunzipped(envelope: SnapshotEnvelope, compressed: Uint8Array): Promise<Buffer> {
  try {
    return await gunzipAsync(compressed);
  } catch {
    throw new EnvelopeError(`${envelope.kind} of ${envelope.namespace}@${envelope.revision} is not gzip`);
  }
}

/** The gunzipped, parsed payload of an envelope. */
function parsed(envelope: SnapshotEnvelope, json: Buffer): unknown {
  try {
    return JSON.parse(json.toString('utf8'));
  } catch {
    throw new EnvelopeError(`${envelope.kind} of ${envelope.namespace}@${envelope.revision} is not JSON`);
  }
}

/** A format 3 hydration's document, parsed a flag at a time. */
async function documentOfLines(envelope: HydrationEnvelope, lines: Buffer): Promise<SnapshotDocument> {
  try {
    return await parseDocumentLines(lines);
  } catch (err) {
    if (err instanceof DocumentLinesError) throw new EnvelopeError(`hydration of ${envelope.namespace}@${envelope.revision}: ${err.message}`);
    throw err;
  }
}

const payloadOf = async (envelope: SnapshotEnvelope, compressed: Uint8Array): Promise<unknown> => parsed(envelope, await gunzipped(envelope, compressed));

/** The snapshot a hydration envelope carries; throws `EnvelopeError` when its payload is unreadable or its object missing. */
export async function readHydration(envelope: HydrationEnvelope, fetchObject?: ObjectFetcher): Promise<NamespaceSnapshot> {
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
  const json = await gunzipped(envelope, compressed);
  const document = envelope.v === 3 ? await documentOfLines(envelope, json) : (parsed(envelope, json) as SnapshotDocument | null);
  if (document === null || typeof document !== 'object' || !Array.isArray(document.flags)) {
    throw new EnvelopeError(`hydration of ${envelope.namespace}@${envelope.revision} is not a snapshot document`);
  }
  if (envelope.v === 1) {
    // Verified here against the previous release's checksum, then carried with this release's, which the holders verify.
    if (sha256Hex(json) !== envelope.checksum) throw new EnvelopeError(`hydration of ${envelope.namespace}@${envelope.revision} does not match its checksum`);
    if (document.namespace?.key !== envelope.namespace) throw new EnvelopeError(`hydration of ${envelope.namespace}@${envelope.revision} holds another namespace`);
    return { namespaceKey: envelope.namespace, revision: envelope.revision, checksum: snapshotChecksum(document), document };
  }
  return { namespaceKey: envelope.namespace, revision: envelope.revision, checksum: envelope.checksum, document };
}

/** The delta a delta envelope carries; throws `EnvelopeError` when its payload is unreadable. */
export async function readDelta(envelope: DeltaEnvelope): Promise<SnapshotDelta> {
  const payload = (await payloadOf(envelope, Buffer.from(envelope.document, 'base64'))) as Partial<DeltaPayload> | null;
  if (payload === null || typeof payload !== 'object' || !Array.isArray(payload.flags) || !Array.isArray(payload.removed) || !payload.removed.every((k) => typeof k === 'string')) {
    throw new EnvelopeError(`delta of ${envelope.namespace}@${envelope.revision} is not a delta`);
  }
  return {
    namespaceKey: envelope.namespace,
    baseRevision: envelope.baseRevision,
    revision: envelope.revision,
    checksum: envelope.checksum,
    flags: payload.flags,
    removed: payload.removed,
  };
}

/** The content of an envelope (raw bytes or parsed); throws `EnvelopeError` when it is malformed or unreadable. */
export async function decodeEnvelope(envelope: Uint8Array | SnapshotEnvelope, fetchObject?: ObjectFetcher): Promise<DecodedEnvelope> {
  const parsed = envelope instanceof Uint8Array ? parseEnvelope(envelope) : envelope;
  return parsed.kind === 'hydration' ? { kind: 'hydration', snapshot: await readHydration(parsed, fetchObject) } : { kind: 'delta', delta: await readDelta(parsed) };
}
