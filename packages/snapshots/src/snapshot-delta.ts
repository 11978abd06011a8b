import type { SnapshotFlag } from '@ensign/engine';

/**
 * What changed in a namespace's snapshot between `baseRevision` and `revision`: the current
 * content of every flag changed in that span and the keys of those removed. It applies to any held
 * version whose revision is in `[baseRevision, revision)`, since every flag it does not name is the
 * same at all of them; `checksum` is the resulting document's, so a wrong base or a corrupt delta is
 * caught before it is taken.
 */
export interface SnapshotDelta {
  namespaceKey: string;
  baseRevision: number;
  revision: number;
  checksum: string;
  /** Upserts, in no particular order. */
  flags: SnapshotFlag[];
  /** Keys of removed flags (a key named here and in `flags` was re-created: `flags` wins). */
  removed: string[];
}
