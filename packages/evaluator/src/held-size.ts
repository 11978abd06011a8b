/** How much memory a held namespace takes, approximately, for the byte bound of the snapshot cache. */
import type { SnapshotDocument } from '@ensign/engine';
import { HELD_BYTES_PER_JSON_CHAR } from '@ensign/snapshots';

/** The approximate heap bytes of holding `document` compiled: what `SnapshotVersion.heldBytes` reports for it. */
export function approximateHeldBytes(document: SnapshotDocument): number {
  let chars = 0;
  for (const flag of document.flags) chars += JSON.stringify(flag).length;
  return Math.max(1, chars * HELD_BYTES_PER_JSON_CHAR);
}
