/**
 * The KV value of one namespace key: a hydration (the whole document) or a delta (the flags changed
 * since `baseRevision`). The gzipped payload is inline (base64) or, for a hydration too large for
 * one NATS message, in the Object Store under `objectRef`. `checksum` is carried as given: it is
 * computed and verified by the snapshot holders, not by the bus.
 */

interface EnvelopeHeader {
  v: 2;
  namespace: string;
  revision: number;
  checksum: string;
  encoding: 'gzip';
}

export interface HydrationEnvelope extends EnvelopeHeader {
  kind: 'hydration';
  document?: string;
  objectRef?: string;
}

export interface DeltaEnvelope extends EnvelopeHeader {
  kind: 'delta';
  baseRevision: number;
  document: string;
}

export type SnapshotEnvelope = HydrationEnvelope | DeltaEnvelope;

/** Thrown when an envelope is malformed or its payload cannot be read. */
export class EnvelopeError extends Error {
  override readonly name: string = 'EnvelopeError';
}

/** Thrown when a delta would not fit in one KV value; the publisher sends a hydration instead. */
export class DeltaTooLargeError extends EnvelopeError {
  override readonly name = 'DeltaTooLargeError';

  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
    what: string,
  ) {
    super(`delta ${what} takes ${bytes} bytes, over the ${maxBytes} allowed inline`);
  }
}

const isRevision = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** Parses and validates an envelope's fields without touching its payload. */
export function parseEnvelope(bytes: Uint8Array): SnapshotEnvelope {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new EnvelopeError('envelope is not JSON');
  }
  const e = raw as Record<string, unknown> | null;
  if (
    e === null ||
    typeof e !== 'object' ||
    e.v !== 2 ||
    typeof e.namespace !== 'string' ||
    !isRevision(e.revision) ||
    typeof e.checksum !== 'string' ||
    e.encoding !== 'gzip' ||
    (typeof e.document === 'string') === (typeof e.objectRef === 'string')
  ) {
    throw new EnvelopeError('envelope is malformed');
  }
  if (e.kind === 'hydration') return e as unknown as HydrationEnvelope;
  if (e.kind === 'delta' && isRevision(e.baseRevision) && e.baseRevision <= e.revision && typeof e.document === 'string') {
    return e as unknown as DeltaEnvelope;
  }
  throw new EnvelopeError('envelope is malformed');
}
