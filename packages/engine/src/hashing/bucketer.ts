/**
 * Consistent bucketing of an entity for one flag. The hash is chosen once per compiled snapshot, so
 * evaluation never branches on the mode.
 */
import CRC32 from 'crc-32';
import murmurhash from 'murmurhash';
import type { HashMode } from '../evaluation-types.js';
import { releasePrefix, scratchView, utf8, writeBytes, writePrefix, writeUtf8 } from './utf8-scratch.js';

/** Buckets one entity for one flag. */
export interface Bucketer {
  /** Distribution bucket in [0, 1000): hash(flagKey + entityId) % 1000. */
  variant(entityId: string): number;
  /** Threshold bucket in [0, 100): hash(entityId + flagKey) % 100 (the key order is reversed). */
  threshold(entityId: string): number;
}

/** murmurhash v3 (32-bit, seed 0) over the UTF-8 of the concatenation. */
class Murmur3Bucketer implements Bucketer {
  constructor(private readonly flagBytes: Uint8Array) {}

  variant(entityId: string): number {
    const flag = this.flagBytes;
    writePrefix(this, flag);
    const length = flag.length + writeUtf8(entityId, flag.length);
    return murmurhash(scratchView(length), 0) % 1000;
  }

  threshold(entityId: string): number {
    const flag = this.flagBytes;
    releasePrefix();
    const entityLength = writeUtf8(entityId, 0);
    writeBytes(flag, entityLength);
    return murmurhash(scratchView(entityLength + flag.length), 0) % 100;
  }
}

/**
 * COMPAT(flipt): CRC-32/IEEE as Flipt buckets. The flag key's CRC is computed once and the entity's
 * bytes continue it, which equals the CRC of the concatenation.
 */
class Crc32Bucketer implements Bucketer {
  private readonly flagCrc: number;

  constructor(private readonly flagBytes: Uint8Array) {
    this.flagCrc = CRC32.buf(flagBytes, 0);
  }

  variant(entityId: string): number {
    releasePrefix();
    const entity = scratchView(writeUtf8(entityId, 0));
    return (CRC32.buf(entity, this.flagCrc) >>> 0) % 1000;
  }

  threshold(entityId: string): number {
    releasePrefix();
    const entity = scratchView(writeUtf8(entityId, 0));
    return (CRC32.buf(this.flagBytes, CRC32.buf(entity, 0)) >>> 0) % 100;
  }
}

/** The bucketer factory for a hash mode; throws on an unknown mode (a configuration bug). */
export function bucketerFor(mode: HashMode): (flagKey: string) => Bucketer {
  switch (mode) {
    case 'murmur3':
      return (flagKey) => new Murmur3Bucketer(utf8(flagKey));
    case 'crc32':
      return (flagKey) => new Crc32Bucketer(utf8(flagKey));
    default:
      throw new RangeError(`unknown hash mode ${JSON.stringify(mode)}`);
  }
}
