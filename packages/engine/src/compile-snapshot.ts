/**
 * Compiles a namespace snapshot document once per version: flags keyed by key, rules and rollouts
 * sorted by rank, constraint values parsed, distributions turned into bucket bounds, the hash chosen,
 * times read into phases (compile-phases.ts) and prerequisites into plans (compile-prerequisites.ts).
 */
import type { EvaluationReason } from '@ensign/core';
import { compileConstraint } from './constraints/compile-constraint.js';
import { OP_UNKNOWN_TYPE } from './constraints/constraint-plan.js';
import type {
  CompiledFlag,
  CompiledSnapshot,
  FlagPlan,
  RolloutPlan,
  RulePlan,
  SegmentGroupPlan,
  SegmentPlan,
} from './compiled-snapshot.js';
import type { CompileOptions, VariantResult } from './evaluation-types.js';
import { compilePhases } from './compile-phases.js';
import { compilePrerequisites } from './compile-prerequisites.js';
import { flagPlan } from './flag-plan.js';
import { bucketerFor } from './hashing/bucketer.js';
import type { Bucketer } from './hashing/bucketer.js';
import { LayeredMap } from './layered-map.js';
import { SnapshotInvalidError } from './snapshot-invalid.error.js';
import type {
  SnapshotDocument,
  SnapshotFlag,
  SnapshotRollout,
  SnapshotRule,
  SnapshotSegment,
  SnapshotSegmentOperator,
} from './snapshot-document.js';
import { isTimed, rampSteps, windowOf } from './timeline.js';
import { validateSnapshot } from './validate-snapshot.js';

/**
 * Compiles a document for evaluation. Throws `SnapshotInvalidError` (with the JSON paths) when the
 * document is structurally invalid; nothing is built from an invalid document.
 */
export function compileSnapshot(doc: SnapshotDocument, options: CompileOptions): CompiledSnapshot {
  const makeBucketer = bucketerFor(options.hash);
  const problems = validateSnapshot(doc);
  if (problems.length > 0) throw new SnapshotInvalidError(problems);
  const segments = new SegmentPlans();
  const flags: Array<[string, CompiledFlag]> = doc.flags.map((f) => [f.key, compileFlag(f, makeBucketer(f.key), segments)]);
  return Object.freeze({ namespaceKey: doc.namespace.key, flags: LayeredMap.of(flags) });
}

/**
 * A new version of `compiled` with `flags` compiled and put (replacing flags of the same key) and
 * the `removed` keys taken out, in time proportional to the change: every other flag is the same
 * compiled object as before. Throws `SnapshotInvalidError` when a flag is structurally invalid, and
 * then `compiled` is all there is.
 */
export function patchSnapshot(
  compiled: CompiledSnapshot,
  flags: readonly SnapshotFlag[],
  removed: readonly string[],
  options: CompileOptions,
): CompiledSnapshot {
  const problems = validateSnapshot({ namespace: { key: compiled.namespaceKey }, flags });
  if (problems.length > 0) throw new SnapshotInvalidError(problems);
  const makeBucketer = bucketerFor(options.hash);
  const current = compiled.flags instanceof LayeredMap ? (compiled.flags as LayeredMap<string, CompiledFlag>) : LayeredMap.of(compiled.flags);
  const segments = new SegmentPlans();
  const put = flags.map((f): [string, CompiledFlag] => [f.key, compileFlag(f, makeBucketer(f.key), segments)]);
  return Object.freeze({ namespaceKey: compiled.namespaceKey, flags: current.with(put, removed) });
}

/** A namespace with no flags: what an unknown namespace evaluates against. */
export function emptySnapshot(namespaceKey: string): CompiledSnapshot {
  return Object.freeze({ namespaceKey, flags: LayeredMap.of<string, CompiledFlag>([]) });
}

const EMPTY: readonly never[] = Object.freeze([]);

export function compileFlag(flag: SnapshotFlag, bucketer: Bucketer, segments: SegmentPlans): FlagPlan {
  const isVariant = flag.type === 'VARIANT_FLAG_TYPE';
  const defaultVariant = flag.defaultVariant ?? null;
  const baseReason: EvaluationReason = defaultVariant === null ? 'UNKNOWN_EVALUATION_REASON' : 'DEFAULT_EVALUATION_REASON';
  // COMPAT(flipt): Flipt fails an evaluation whose rules or rollouts come out of rank order; here they
  // are sorted (stably) at compile time, so that error cannot occur. Our control plane sends them sorted.
  const defaultKey = defaultVariant?.key ?? '';
  const defaultAttachment = defaultVariant?.attachment ?? '';
  const fallback = { key: defaultKey, attachment: defaultAttachment, reason: baseReason };
  const ruleSources = isVariant ? byRank(flag.rules).filter((r) => r.segments.length > 0) : EMPTY;
  const rolloutSources = isVariant ? EMPTY : byRank(flag.rollouts).filter(isEvaluated);
  const rules = ruleSources.map((r) => compileRule(r, segments, fallback));
  const rollouts = rolloutSources.map((r) => compileRollout(r, segments));
  const plan = flagPlan({
    disabledOutcome: outcome(false, 'FLAG_DISABLED_EVALUATION_REASON', defaultKey, defaultAttachment, EMPTY),
    unmatchedOutcome: outcome(false, baseReason, defaultKey, defaultAttachment, EMPTY),
    key: flag.key,
    type: flag.type,
    enabled: flag.enabled,
    isVariant,
    defaultVariantKey: defaultKey,
    defaultVariantAttachment: defaultAttachment,
    baseReason,
    rules: Object.freeze(rules),
    rollouts: Object.freeze(rollouts),
    bucketer,
    plain: true,
    boundaries: EMPTY,
    phases: EMPTY,
    prerequisites: EMPTY,
  });
  const prerequisites = compilePrerequisites(flag.prerequisites, { key: defaultKey, attachment: defaultAttachment });
  if (!isTimed(flag)) return prerequisites.length === 0 ? plan : flagPlan({ ...plan, plain: false, prerequisites });
  const { boundaries, phases } = compilePhases(
    flag,
    plan,
    rules.map((r, i) => ({ plan: r, window: windowOf(ruleSources[i]!), ramp: EMPTY })),
    rollouts.map((r, i) => ({ plan: r, window: windowOf(rolloutSources[i]!), ramp: rampSteps(rolloutSources[i]!) })),
  );
  // Read as it stands before its first boundary wherever a caller looks without the clock.
  return flagPlan({ ...phases[0]!, plain: false, boundaries, phases, prerequisites });
}

function byRank<T extends { rank: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.rank - b.rank);
}

/** The default variant of a flag and the reason a result without a distribution's variant has. */
interface Fallback {
  key: string;
  attachment: string;
  reason: EvaluationReason;
}

/** A variant result shared by every evaluation that ends in it: frozen, segment keys included. */
function outcome(match: boolean, reason: EvaluationReason, variantKey: string, variantAttachment: string, segmentKeys: readonly string[]): VariantResult {
  return Object.freeze({ match, reason, variantKey, variantAttachment, segmentKeys: segmentKeys as string[] });
}

function compileRule(rule: SnapshotRule, segments: SegmentPlans, fallback: Fallback): RulePlan {
  const bounds: number[] = [];
  const variantKeys: string[] = [];
  const variantAttachments: string[] = [];
  let cumulative = 0;
  for (const d of rule.distributions) {
    if (!(d.rollout > 0)) continue;
    // COMPAT(flipt): float32(rollout) * float32(10), truncated, so 33.33% is 333 buckets.
    cumulative += Math.trunc(Math.fround(Math.fround(d.rollout) * 10));
    bounds.push(cumulative);
    variantKeys.push(d.variantKey);
    variantAttachments.push(d.variantAttachment);
  }
  const group = compileGroup(rule.segmentOperator, rule.segments, segments);
  const outcomes = variantKeys.map((key, i) => outcome(true, 'MATCH_EVALUATION_REASON', key, variantAttachments[i]!, group.allKeys));
  outcomes.push(outcome(true, 'MATCH_EVALUATION_REASON', fallback.key, fallback.attachment, group.allKeys));
  outcomes.push(outcome(false, fallback.reason, fallback.key, fallback.attachment, group.allKeys));
  return Object.freeze({
    group,
    bounds: Object.freeze(bounds),
    variantKeys: Object.freeze(variantKeys),
    variantAttachments: Object.freeze(variantAttachments),
    outcomes: Object.freeze(outcomes),
  });
}

/** Flipt ignores a rollout with neither a threshold nor a segment. */
const isEvaluated = (rollout: SnapshotRollout): boolean => (rollout.threshold ?? rollout.segment ?? null) !== null;

/** Flipt checks `threshold` before `segment`. */
function compileRollout(rollout: SnapshotRollout, segments: SegmentPlans): RolloutPlan {
  const { threshold, segment } = rollout;
  if (threshold !== undefined && threshold !== null) {
    return Object.freeze({ group: null, percentage: Math.fround(threshold.percentage), value: threshold.value });
  }
  const group = compileGroup(segment!.segmentOperator, segment!.segments, segments);
  return Object.freeze({ group, percentage: 0, value: segment!.value });
}

function compileGroup(operator: SnapshotSegmentOperator, segments: readonly SnapshotSegment[], compiled: SegmentPlans): SegmentGroupPlan {
  const seen = new Set<string>();
  const plans: SegmentPlan[] = [];
  for (const s of segments) {
    if (seen.has(s.key)) continue;
    seen.add(s.key);
    plans.push(compiled.of(s));
  }
  return Object.freeze({
    and: operator === 'AND_SEGMENT_OPERATOR',
    segments: Object.freeze(plans),
    allKeys: Object.freeze(plans.map((p) => p.key)),
    shortCircuit: !plans.some((p) => p.hasUnknown),
  });
}

/**
 * The segments of one compile, each compiled once however many rules and rollouts use it: within
 * one document (or one delta's flags) a segment key stands for one segment.
 */
export class SegmentPlans {
  private readonly plans = new Map<string, SegmentPlan>();

  of(segment: SnapshotSegment): SegmentPlan {
    let plan = this.plans.get(segment.key);
    if (plan === undefined) {
      plan = compileSegment(segment);
      this.plans.set(segment.key, plan);
    }
    return plan;
  }
}

function compileSegment(segment: SnapshotSegment): SegmentPlan {
  const constraints = segment.constraints.map(compileConstraint);
  return Object.freeze({
    key: segment.key,
    any: segment.matchType === 'ANY_SEGMENT_MATCH_TYPE',
    constraints: Object.freeze(constraints),
    hasUnknown: constraints.some((c) => c.op === OP_UNKNOWN_TYPE),
  });
}
