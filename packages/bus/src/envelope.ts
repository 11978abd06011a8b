/**
 * The KV value of one namespace key: a hydration (the whole document) or a delta (the flags changed
 * since `baseRevision`). The gzipped payload is inline (base64) or, for a hydration too large for
 * one NATS message, in the Object Store under `objectRef`. `checksum` is carried as given: it is
 * computed and verified by the snapshot holders, not by the bus.
 *
 * `v` is the envelope format. 3 is this release's: as 2, but a hydration's document is gzipped as
 * lines (hydration-lines.ts), one flag per line, so it is written and read a flag at a time. 2 is
 * the previous release's (the document as one JSON value); 1 the one before (hydrations only, no
 * `kind`, `checksum` the hex SHA-256 of the document's JSON). Both are read, and written while
 * processes of those releases remain (`nats.envelope_version`). A later format keeps `v`,
 * `namespace` and `revision` where they are, so a process that cannot read it still knows its
 * revision and never writes over it.
 */

/** The format this release writes unless told to write an earlier one. */
export const ENVELOPE_VERSION = 3;

/** The formats this release reads and writes: its own, and the earlier ones during an upgrade. */
export type EnvelopeVersion = 1 | 2 | 3;

interface EnvelopeHeader {
  namespace: string;
  revision: number;
  checksum: string;
  encoding: 'gzip';
}

export interface HydrationEnvelope extends EnvelopeHeader {
  v: EnvelopeVersion;
  kind: 'hydration';
  document?: string;
  objectRef?: string;
}

export interface DeltaEnvelope extends EnvelopeHeader {
  v: 2 | 3;
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

/** Thrown for an envelope of a format newer than this release reads; it still names its revision when it has one. */
export class NewerEnvelopeError extends EnvelopeError {
  override readonly name = 'NewerEnvelopeError';

  constructor(
    readonly version: number,
    readonly revision: number | undefined,
  ) {
    super(`envelope format ${version} is newer than this release reads (${ENVELOPE_VERSION})`);
  }
}

const isRevision = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * Parses and validates an envelope's fields without touching its payload. A previous-release
 * envelope comes back as a hydration of format 1; a newer format throws `NewerEnvelopeError`.
 */
export function parseEnvelope(bytes: Uint8Array): SnapshotEnvelope {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new EnvelopeError('envelope is not JSON');
  }
  const e = raw as Record<string, unknown> | null;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) throw new EnvelopeError('envelope is malformed');
  if (Number.isSafeInteger(e.v) && (e.v as number) > ENVELOPE_VERSION) {
    throw new NewerEnvelopeError(e.v as number, isRevision(e.revision) ? e.revision : undefined);
  }
  if (
    (e.v !== 1 && e.v !== 2 && e.v !== 3) ||
    typeof e.namespace !== 'string' ||
    !isRevision(e.revision) ||
    typeof e.checksum !== 'string' ||
    e.encoding !== 'gzip' ||
    (typeof e.document === 'string') === (typeof e.objectRef === 'string')
  ) {
    throw new EnvelopeError('envelope is malformed');
  }
  // The previous release wrote hydrations only, without a kind.
  if (e.v === 1) {
    if (e.kind !== undefined) throw new EnvelopeError('envelope is malformed');
    return { ...e, kind: 'hydration' } as unknown as HydrationEnvelope;
  }
  if (e.kind === 'hydration') return e as unknown as HydrationEnvelope;
  if (e.kind === 'delta' && isRevision(e.baseRevision) && e.baseRevision <= e.revision && typeof e.document === 'string') {
    return e as unknown as DeltaEnvelope;
  }
  throw new EnvelopeError('envelope is malformed');
}
