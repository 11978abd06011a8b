/** Why a snapshot or delta was refused before it could replace what is held. */
export type MismatchReason = 'checksum' | 'base';

/**
 * A hydration whose document does not match its checksum, or a delta that does not apply to the
 * version held (`base`) or whose result does not match its checksum; what is held stays.
 */
export class SnapshotMismatchError extends Error {
  override readonly name = 'SnapshotMismatchError';
  constructor(
    readonly reason: MismatchReason,
    message: string,
  ) {
    super(message);
  }
}
