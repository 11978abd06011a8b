/**
 * Whether a variant flag's match was a pseudorandom assignment (OpenFeature's SPLIT) or targeting
 * alone (TARGETING_MATCH). A rule splits when it distributes its segment over two or more
 * variants, or over one below 100 %. The engine's result names the segments that matched, which
 * identifies the rule: evaluation takes the first rule (by rank, in its window) that matches, an
 * AND rule answers all its segments and an OR rule those of its segments that matched, and a
 * segment matches the same way in every rule; so the rule is the first whose segments are exactly
 * those (AND) or include them (OR). Flags whose rules all split, or none, are answered without it.
 */
import type { SnapshotFlag, SnapshotRule } from '@ensign/engine';

interface RuleShape {
  and: boolean;
  segments: ReadonlySet<string>;
  split: boolean;
  from: number;
  until: number;
}

/** Per flag: the same answer for every match, or the rules to find the matched one among. */
type FlagSplit = boolean | readonly RuleShape[];

const timeOf = (text: string | undefined, open: number): number => (text === undefined || text === null ? open : Date.parse(text));

function splits(rule: SnapshotRule): boolean {
  const served = rule.distributions.filter((d) => d.rollout > 0);
  return served.length > 1 || (served.length === 1 && (served[0]?.rollout ?? 0) < 100);
}

function flagSplit(flag: SnapshotFlag): FlagSplit {
  // The engine drops rules without segments and walks the rest by rank.
  const rules = flag.rules.filter((rule) => rule.segments.length > 0).sort((a, b) => a.rank - b.rank);
  const shapes = rules.map((rule) => ({
    and: rule.segmentOperator === 'AND_SEGMENT_OPERATOR',
    segments: new Set(rule.segments.map((s) => s.key)),
    split: splits(rule),
    from: timeOf(rule.validFrom, -Infinity),
    until: timeOf(rule.validUntil, Infinity),
  }));
  if (shapes.every((s) => s.split)) return true;
  if (shapes.every((s) => !s.split)) return false;
  return shapes;
}

function matchedRule(shapes: readonly RuleShape[], segmentKeys: readonly string[], now: number): RuleShape | undefined {
  return shapes.find((shape) => {
    if (!(shape.from <= now && now < shape.until) || segmentKeys.length === 0) return false;
    if (shape.and && shape.segments.size !== new Set(segmentKeys).size) return false;
    return segmentKeys.every((key) => shape.segments.has(key));
  });
}

export class SplitRules {
  private readonly byFlag = new Map<string, FlagSplit>();

  constructor(flags: Iterable<SnapshotFlag>) {
    for (const flag of flags) if (flag.type === 'VARIANT_FLAG_TYPE') this.byFlag.set(flag.key, flagSplit(flag));
  }

  /** Whether the variant flag `flagKey`, matched on `segmentKeys`, assigned its variant by bucket. */
  variantSplit(flagKey: string, segmentKeys: readonly string[], now: () => number): boolean {
    const found = this.byFlag.get(flagKey);
    if (typeof found === 'boolean' || found === undefined) return found === true;
    return matchedRule(found, segmentKeys, now())?.split === true;
  }
}
