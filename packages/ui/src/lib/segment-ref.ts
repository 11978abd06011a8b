/**
 * The segments of a rule or segment rollout: one segment travels as `segmentKey`, several as
 * `segmentKeys` with an operator (AND: every segment must match; OR: any one).
 */
import type { SegmentOperator } from '@ensign/core';

export interface SegmentRefLike {
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

/** The segment keys of a rule or rollout, whichever field holds them. */
export function segmentKeysOf(ref: SegmentRefLike): string[] {
  if (ref.segmentKeys.length > 0) return [...ref.segmentKeys];
  return ref.segmentKey === '' ? [] : [ref.segmentKey];
}

/** The request fields for `keys`: `segmentKey` for one, `segmentKeys` and the operator for several. */
export function segmentRefInput(keys: readonly string[], operator: SegmentOperator): { segmentKey?: string; segmentKeys?: string[]; segmentOperator?: SegmentOperator } {
  if (keys.length === 1) return { segmentKey: keys[0] as string };
  return { segmentKeys: [...keys], segmentOperator: operator };
}

/** `AND` / `OR`, as shown between segment keys. */
export const operatorWord = (operator: SegmentOperator): 'AND' | 'OR' => (operator === 'AND_SEGMENT_OPERATOR' ? 'AND' : 'OR');

/** `beta`, `beta AND staff`: how a rule reads. */
export function describeSegments(ref: SegmentRefLike): string {
  return segmentKeysOf(ref).join(` ${operatorWord(ref.segmentOperator)} `);
}

/** The keys of `keys` that `known` lacks (segments deleted since, or never there). */
export function missingSegments(keys: readonly string[], known: ReadonlySet<string>): string[] {
  return keys.filter((key) => !known.has(key));
}
