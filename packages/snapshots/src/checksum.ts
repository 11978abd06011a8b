/**
 * The checksum of a snapshot document, computed so that a new version's checksum costs only its
 * changed flags: each flag's SHA-256 is summed modulo 2^256 (a multiset hash; the document's flag
 * order is canonical, so the set fixes the document), and the sum, the flag count and the namespace
 * key are hashed once more. Equal documents, equal checksums; ETags derive from it.
 */
import { createHash } from 'node:crypto';
import type { SnapshotDocument, SnapshotFlag } from '@ensign/engine';

const MODULUS = 1n << 256n;

/** A flag with what it adds to its document's checksum and its JSON length (for the held-size estimate). */
export interface FlagDigest {
  flag: SnapshotFlag;
  digest: bigint;
  chars: number;
}

/** The digest of one flag, from its JSON. */
export function digestFlag(flag: SnapshotFlag): FlagDigest {
  const json = JSON.stringify(flag);
  return { flag, digest: BigInt(`0x${createHash('sha256').update(json).digest('hex')}`), chars: json.length };
}

/** `sum` with `removed` taken out and `added` put in, modulo 2^256. */
export function adjustSum(sum: bigint, removed: bigint, added: bigint): bigint {
  return (((sum - removed + added) % MODULUS) + MODULUS) % MODULUS;
}

/** The checksum of a document with `count` flags whose digests add up to `sum`. */
export function checksumOf(namespaceKey: string, count: number, sum: bigint): string {
  return createHash('sha256').update(`${namespaceKey}\n${count}\n${sum.toString(16)}`).digest('hex');
}

/** The checksum of a whole document, computed from scratch. */
export function snapshotChecksum(document: SnapshotDocument): string {
  let sum = 0n;
  for (const flag of document.flags) sum = adjustSum(sum, 0n, digestFlag(flag).digest);
  return checksumOf(document.namespace.key, document.flags.length, sum);
}
