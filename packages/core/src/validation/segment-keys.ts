/** The segment reference of rules and segment rollouts: `segmentKey` XOR `segmentKeys`. */
import type { SegmentOperator } from '../enums.js';
import { emptyField, invalidField } from '../errors.js';

const FIELD = 'segmentKey or segmentKeys';

/** The segment fields as stored: every key in `segmentKeys`, `segmentKey` empty. */
export interface SegmentRef {
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

/** Exactly one of `segmentKey` / `segmentKeys` must be sent. */
export function checkSegmentRef(ref: SegmentRef): void {
  if (ref.segmentKey === '' && ref.segmentKeys.length === 0) throw emptyField(FIELD);
  if (ref.segmentKey !== '' && ref.segmentKeys.length > 0) throw invalidField(FIELD, 'only one can be present');
}

/**
 * Moves a single `segmentKey` into `segmentKeys`, de-duplicates the keys in order, and forces OR
 * when a single segment remains (COMPAT(flipt): the SQL store does the same).
 */
export function normaliseSegmentRef(ref: SegmentRef): SegmentRef {
  const segmentKeys = ref.segmentKey === '' ? [...new Set(ref.segmentKeys)] : [ref.segmentKey];
  const segmentOperator = segmentKeys.length === 1 ? 'OR_SEGMENT_OPERATOR' : ref.segmentOperator;
  return { segmentKey: '', segmentKeys, segmentOperator };
}
