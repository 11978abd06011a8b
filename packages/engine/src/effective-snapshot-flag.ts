/**
 * A flag folded into Flipt's plain form at a time, for clients that evaluate Flipt's document
 * themselves (the client-side snapshot, Flipt v2's streams) and know nothing of Ensign's fields:
 * - schedules give `enabled`; rules and rollouts outside their windows are left out; a ramped
 *   threshold carries its current percentage; none of those fields is kept;
 * - prerequisites are decided for everyone where the answer does not depend on the entity: a
 *   missing parent, a disabled variant parent, a boolean parent whose rollouts give everyone the
 *   same value (none, a threshold of 0 or 100 %, a segment that matches everyone), a variant
 *   parent whose first rule matches everyone and serves only listed variants or none, one
 *   without rules; and the same of their own prerequisites. When they all hold they are dropped.
 *   When one fails, and also when the answer depends on the entity (Flipt's document cannot say
 *   "only where another flag holds", so this fails closed: no entity gets the flag that a
 *   failing prerequisite should have kept from it), a boolean flag is served with a single 100 %
 *   threshold rollout of value false and a variant flag with no rules (its default variant); a
 *   disabled variant flag is served disabled, as it would answer anyway.
 * A flag without Ensign's fields is returned as it is. A boundary (see `flagBoundaries`) is where
 * the folding of a flag, or of a parent, may change.
 */
import { MAX_PREREQUISITE_DEPTH } from './evaluation-call.js';
import type { SnapshotDocument, SnapshotFlag, SnapshotPrerequisite, SnapshotRollout, SnapshotRule, SnapshotSegment, SnapshotSegmentOperator } from './snapshot-document.js';
import { rampSteps, scheduleSteps, valueAt, windowOf, within } from './timeline.js';

const present = (value: unknown): boolean => value !== undefined;

const hasWindowField = (item: SnapshotRule | SnapshotRollout): boolean => present(item.validFrom) || present(item.validUntil);

/** Whether the flag carries any of Ensign's fields, even empty. */
function hasExtensions(flag: SnapshotFlag): boolean {
  return (
    present(flag.prerequisites) ||
    present(flag.schedules) ||
    flag.rules.some(hasWindowField) ||
    flag.rollouts.some((r) => hasWindowField(r) || present(r.threshold?.ramp))
  );
}

/** `flag` at `now` (epoch ms) in Flipt's form; `flags` are the namespace's flags by key, for its prerequisites. */
export function effectiveSnapshotFlag(flag: SnapshotFlag, flags: ReadonlyMap<string, SnapshotFlag>, now: number): SnapshotFlag {
  return hasExtensions(flag) ? new Folding(flags, now).fold(flag) : flag;
}

/** Every flag of `document` folded at `now`; the document itself when none carries Ensign's fields. */
export function effectiveSnapshotDocument(document: SnapshotDocument, now: number): SnapshotDocument {
  if (!document.flags.some(hasExtensions)) return document;
  const folding = new Folding(new Map(document.flags.map((f) => [f.key, f])), now);
  return { namespace: document.namespace, flags: document.flags.map((f) => (hasExtensions(f) ? folding.fold(f) : f)) };
}

/**
 * Whether prerequisites hold for everyone, fail for everyone, or depend on the entity; `broken`: a
 * walk went past the depth guard (a cycle), which fails every flag on the way back, as evaluation does.
 */
type Verdict = 'holds' | 'fails' | 'varies' | 'broken';

const FAIL_CLOSED_ROLLOUT: SnapshotRollout = Object.freeze({ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: Object.freeze({ percentage: 100, value: false }) });

/** One folding at one time, remembering each flag's time-folded form and verdict. */
class Folding {
  private readonly timed = new Map<SnapshotFlag, SnapshotFlag>();
  private readonly verdicts = new Map<SnapshotFlag, Verdict>();
  private depth = 0;

  constructor(
    private readonly flags: ReadonlyMap<string, SnapshotFlag>,
    private readonly now: number,
  ) {}

  fold(flag: SnapshotFlag): SnapshotFlag {
    const atNow = this.atNow(flag);
    // A disabled variant flag serves its default variant, prerequisites or not.
    if (flag.type === 'VARIANT_FLAG_TYPE' && !atNow.enabled) return atNow;
    if (this.verdict(flag) === 'holds') return atNow;
    return flag.type === 'BOOLEAN_FLAG_TYPE' ? { ...atNow, rollouts: [FAIL_CLOSED_ROLLOUT] } : { ...atNow, rules: [] };
  }

  /** Schedules, windows and ramps applied; without any of Ensign's fields. */
  private atNow(flag: SnapshotFlag): SnapshotFlag {
    let folded = this.timed.get(flag);
    if (folded === undefined) {
      const { prerequisites: _prerequisites, schedules: _schedules, ...plain } = flag;
      const t = this.now;
      folded = {
        ...plain,
        enabled: valueAt(scheduleSteps(flag), flag.enabled, t),
        rules: flag.rules.filter((r) => within(windowOf(r), t)).map(plainRule),
        rollouts: flag.rollouts.filter((r) => within(windowOf(r), t)).map((r) => plainRollout(r, t)),
      };
      this.timed.set(flag, folded);
    }
    return folded;
  }

  private verdict(flag: SnapshotFlag): Verdict {
    const known = this.verdicts.get(flag);
    if (known !== undefined) return known;
    const prerequisites = flag.prerequisites ?? [];
    if (prerequisites.length === 0) return 'holds';
    if (this.depth >= MAX_PREREQUISITE_DEPTH) return 'broken';
    this.depth++;
    let verdict: Verdict = 'holds';
    for (const p of prerequisites) {
      const one = this.prerequisite(p);
      if (one === 'fails' || one === 'broken') {
        verdict = one;
        break;
      }
      if (one === 'varies') verdict = 'varies';
    }
    this.depth--;
    this.verdicts.set(flag, verdict);
    return verdict;
  }

  private prerequisite(p: SnapshotPrerequisite): Verdict {
    const parent = this.flags.get(p.flagKey);
    if (parent === undefined) return 'fails';
    const atNow = this.atNow(parent);
    const variants = p.variants ?? null;
    if (parent.type === 'VARIANT_FLAG_TYPE') {
      const gate = atNow.enabled ? this.verdict(parent) : 'fails';
      if (gate === 'varies' || gate === 'broken') return gate;
      const on = gate === 'holds';
      if (variants === null) return on === (p.enabled === true) ? 'holds' : 'fails';
      return on ? servedFrom(atNow, variants) : 'fails';
    }
    if (variants !== null) return 'fails';
    const gate = this.verdict(parent);
    if (gate === 'varies' || gate === 'broken') return gate;
    if (gate === 'fails') return p.enabled === false ? 'holds' : 'fails';
    const value = valueForEveryone(atNow);
    if (value === undefined) return 'varies';
    return value === (p.enabled === true) ? 'holds' : 'fails';
  }
}

function plainRule(rule: SnapshotRule): SnapshotRule {
  const { validFrom: _from, validUntil: _until, ...plain } = rule;
  return plain;
}

function plainRollout(rollout: SnapshotRollout, t: number): SnapshotRollout {
  const { validFrom: _from, validUntil: _until, ...plain } = rollout;
  const threshold = rollout.threshold;
  if (threshold === undefined || threshold === null) return plain;
  const { ramp: _ramp, ...rest } = threshold;
  return { ...plain, threshold: { ...rest, percentage: valueAt(rampSteps(rollout), threshold.percentage, t) } };
}

const byRank = <T extends { rank: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.rank - b.rank);

/** Whether a segment group matches every entity: segments without constraints match anyone. */
function matchesEveryone(operator: SnapshotSegmentOperator, segments: readonly SnapshotSegment[]): boolean {
  const open = (s: SnapshotSegment): boolean => s.constraints.length === 0;
  return operator === 'AND_SEGMENT_OPERATOR' ? segments.every(open) : segments.length === 0 || segments.some(open);
}

/** A boolean flag's value when it is the same for every entity, else undefined. */
function valueForEveryone(flag: SnapshotFlag): boolean | undefined {
  for (const rollout of byRank(flag.rollouts)) {
    const { threshold, segment } = rollout;
    if (threshold !== undefined && threshold !== null) {
      // Buckets are 0..99 and match below the float32 percentage.
      const percentage = Math.fround(threshold.percentage);
      if (percentage > 99) return threshold.value;
      if (percentage <= 0) continue;
      return undefined;
    }
    if (segment !== undefined && segment !== null) {
      if (matchesEveryone(segment.segmentOperator, segment.segments)) return segment.value;
      return undefined;
    }
  }
  return flag.enabled;
}

/** Whether an enabled variant flag serves everyone a listed variant, no one, or depends on the entity. */
function servedFrom(flag: SnapshotFlag, variants: readonly string[]): Verdict {
  const served = new Set<string>();
  const defaultKey = flag.defaultVariant?.key ?? '';
  const rule = byRank(flag.rules).find((r) => r.segments.length > 0);
  if (rule === undefined) served.add(defaultKey);
  else if (!matchesEveryone(rule.segmentOperator, rule.segments)) return 'varies';
  else {
    // As compiled: each distribution takes trunc(float32(rollout) * 10) of 1,000 buckets; the rest serve the default variant.
    let buckets = 0;
    for (const d of rule.distributions) {
      const width = d.rollout > 0 ? Math.trunc(Math.fround(Math.fround(d.rollout) * 10)) : 0;
      if (width > 0 && buckets < 1000) served.add(d.variantKey);
      buckets += width;
    }
    if (buckets < 1000) served.add(defaultKey);
  }
  const listed = [...served].filter((key) => variants.includes(key)).length;
  return listed === served.size ? 'holds' : listed === 0 ? 'fails' : 'varies';
}
