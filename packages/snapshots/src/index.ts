/**
 * @ensign/snapshots: versions of a namespace's evaluation snapshot (checksums, deltas, hydration)
 * and the rules every holder of them follows.
 */
export { digestFlag, snapshotChecksum } from './checksum.js';
export { EventLoopSlices } from './event-loop-slices.js';
export { compareFlags } from './flag-order.js';
export type { FollowedBucket, FollowedEntry } from './followed-bucket.js';
export type { SnapshotDelta } from './snapshot-delta.js';
export { SnapshotMismatchError } from './snapshot-errors.js';
export type { MismatchReason } from './snapshot-errors.js';
export { SnapshotFollower } from './snapshot-follower.js';
export type { FollowerCounts, SnapshotFollowerOptions, VerifiedListener } from './snapshot-follower.js';
export type { SnapshotLogger } from './snapshot-logger.js';
export { HELD_BYTES_PER_JSON_CHAR, SnapshotVersion } from './snapshot-version.js';
export type { VersionHolder } from './version-holder.js';
/** The engine's snapshot shapes, for holders of versions (the bus) that need not depend on the engine. */
export type { NamespaceSnapshot, SnapshotDocument, SnapshotFlag } from '@ensign/engine';
