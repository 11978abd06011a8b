/**
 * Whether a match was decided by the entity's bucket (OpenFeature's SPLIT) rather than by targeting
 * alone (TARGETING_MATCH). The engine's result names the matched segments, not the rule, so the
 * rule is found again: rules are tried in rank order, and an AND rule yields all its segment keys,
 * an OR rule the ones that matched, so the first rule whose keys fit the result's is the one the
 * engine stopped at. It is a split when that rule spreads entities over two or more variants.
 */
import type { SnapshotFlag, SnapshotRule } from '@ensign/engine';

/** Whether the rule counts at `now` (validFrom ≤ now < validUntil); times are RFC 3339, as the control plane writes them. */
function inWindow(rule: SnapshotRule, now: number): boolean {
  const from = rule.validFrom === undefined ? NaN : Date.parse(rule.validFrom);
  const until = rule.validUntil === undefined ? NaN : Date.parse(rule.validUntil);
  return !(from > now) && !(until <= now);
}

function fits(rule: SnapshotRule, matched: readonly string[]): boolean {
  const keys = new Set(rule.segments.map((segment) => segment.key));
  if (matched.length === 0 || !matched.every((key) => keys.has(key))) return false;
  return rule.segmentOperator !== 'AND_SEGMENT_OPERATOR' || keys.size === matched.length;
}

/** A variant flag's match on `matched` segments at `now`. */
export function isVariantSplit(flag: SnapshotFlag, matched: readonly string[], now: number): boolean {
  const ranked = flag.rules.filter((rule) => rule.segments.length > 0 && inWindow(rule, now)).sort((a, b) => a.rank - b.rank);
  const rule = ranked.find((candidate) => fits(candidate, matched));
  return rule !== undefined && rule.distributions.filter((d) => d.rollout > 0).length > 1;
}

/** A boolean flag's match: only a threshold rollout matches without naming segments. */
export const isBooleanSplit = (matched: readonly string[]): boolean => matched.length === 0;
