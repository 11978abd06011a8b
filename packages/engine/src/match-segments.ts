/**
 * Segment matching (reference §5.2) and the OR/AND operator over a rule's or rollout's segments.
 * Within a segment, Flipt stops at the first failing constraint (ALL) or the first match (ANY); a
 * constraint of unknown type fails the evaluation only if it is reached.
 */
import type { SegmentGroupPlan, SegmentPlan } from './compiled-snapshot.js';
import { MATCHED, NOT_MATCHED, UNKNOWN_TYPE, matchConstraint } from './constraints/match-constraint.js';

/** Returned by `matchGroup` when an unknown constraint type was reached. */
export const GROUP_FAILED: readonly string[] = Object.freeze(['<unknown constraint type>']);

function matchSegment(s: SegmentPlan, context: Readonly<Record<string, string>>, entityId: string): number {
  const cs = s.constraints;
  const n = cs.length;
  if (s.any) {
    if (n === 0) return MATCHED;
    for (let i = 0; i < n; i++) {
      const r = matchConstraint(cs[i]!, context, entityId);
      if (r !== NOT_MATCHED) return r;
    }
    return NOT_MATCHED;
  }
  for (let i = 0; i < n; i++) {
    const r = matchConstraint(cs[i]!, context, entityId);
    if (r !== MATCHED) return r;
  }
  return MATCHED;
}

/**
 * The matched segment keys when the group's operator is satisfied, `null` when it is not, or
 * `GROUP_FAILED`. Every segment is evaluated (as Flipt does) unless the outcome is already decided
 * and no unknown constraint could still fail it.
 * COMPAT(flipt): Flipt collects matched keys from a Go map, in random order; here they come in the
 * rule's segment order, the same on every call.
 */
export function matchGroup(
  g: SegmentGroupPlan,
  context: Readonly<Record<string, string>>,
  entityId: string,
): readonly string[] | null {
  const segs = g.segments;
  const n = segs.length;
  if (g.and) {
    let failed = false;
    for (let i = 0; i < n; i++) {
      const r = matchSegment(segs[i]!, context, entityId);
      if (r === UNKNOWN_TYPE) return GROUP_FAILED;
      if (r === NOT_MATCHED) {
        if (g.shortCircuit) return null;
        failed = true;
      }
    }
    return failed ? null : g.allKeys;
  }
  if (n === 1) {
    const r = matchSegment(segs[0]!, context, entityId);
    return r === MATCHED ? g.allKeys : r === UNKNOWN_TYPE ? GROUP_FAILED : null;
  }
  let matched: string[] | null = null;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const s = segs[i]!;
    const r = matchSegment(s, context, entityId);
    if (r === UNKNOWN_TYPE) return GROUP_FAILED;
    if (r === MATCHED) {
      (matched ??= []).push(s.key);
      count++;
    }
  }
  return count === n ? g.allKeys : matched;
}
