/**
 * The canonical order of a document's flags: by creation time, then key (UTF-16 code units), so a
 * document built from the database and one patched flag by flag list them alike on every engine.
 */
import type { SnapshotFlag } from '@ensign/engine';

/** Negative when `a` comes first. */
export function compareFlags(a: SnapshotFlag, b: SnapshotFlag): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.key === b.key) return 0;
  return a.key < b.key ? -1 : 1;
}

/** Merges two lists already in canonical order. */
export function mergeFlags(a: readonly SnapshotFlag[], b: readonly SnapshotFlag[]): SnapshotFlag[] {
  if (b.length === 0) return a as SnapshotFlag[];
  const out: SnapshotFlag[] = new Array<SnapshotFlag>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareFlags(a[i] as SnapshotFlag, b[j] as SnapshotFlag) <= 0 ? (a[i++] as SnapshotFlag) : (b[j++] as SnapshotFlag);
  while (i < a.length) out[k++] = a[i++] as SnapshotFlag;
  while (j < b.length) out[k++] = b[j++] as SnapshotFlag;
  return out;
}

/** The index of `flag` in `flags` (canonical order), or where it would go: the first position not before it. */
export function positionOf(flags: readonly SnapshotFlag[], flag: SnapshotFlag): number {
  let low = 0;
  let high = flags.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareFlags(flags[middle] as SnapshotFlag, flag) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
