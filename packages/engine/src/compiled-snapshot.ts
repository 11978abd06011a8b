/**
 * The compiled, immutable form of one namespace's snapshot, and the plans evaluation walks.
 * Only `CompiledSnapshot` and `CompiledFlag` are public; the plans are the engine's own.
 */
import type { BooleanResult, VariantResult } from './evaluation-types.js';
import type { EvaluationReason } from '@ensign/core';
import type { ConstraintPlan } from './constraints/constraint-plan.js';
import type { Bucketer } from './hashing/bucketer.js';
import type { SnapshotFlagType } from './snapshot-document.js';

/** One namespace, ready to evaluate. Frozen; the flag map rejects writes. */
export interface CompiledSnapshot {
  readonly namespaceKey: string;
  readonly flags: ReadonlyMap<string, CompiledFlag>;
}

/** A flag as callers may inspect it; its compiled parts are private to the engine. */
export interface CompiledFlag {
  readonly key: string;
  readonly type: SnapshotFlagType;
  /** As stored; a schedule may change it with time (see `flagEnabled`). */
  readonly enabled: boolean;
}

/** A segment: match type and compiled constraints. */
export interface SegmentPlan {
  readonly key: string;
  /** ANY (true) or ALL (false). */
  readonly any: boolean;
  readonly constraints: readonly ConstraintPlan[];
  /** Whether a constraint of unknown type may be reached (evaluation then fails). */
  readonly hasUnknown: boolean;
}

/** The segments of a rule or a segment rollout, with their operator. */
export interface SegmentGroupPlan {
  /** AND (true) or OR (false). */
  readonly and: boolean;
  /** Distinct by key, in document order (Flipt keys them in a map). */
  readonly segments: readonly SegmentPlan[];
  /** Every segment key, frozen: the segmentKeys of an AND match or of a one-segment group. */
  readonly allKeys: readonly string[];
  /** An AND group may stop at its first unmatched segment when no unknown constraint could fail it. */
  readonly shortCircuit: boolean;
}

/** A variant rule: its segments and its distributions as cumulative bucket bounds. */
export interface RulePlan {
  readonly group: SegmentGroupPlan;
  /** Exclusive upper bounds in [0, 1000]; a bucket b picks the first i with b < bounds[i]. */
  readonly bounds: readonly number[];
  readonly variantKeys: readonly string[];
  readonly variantAttachments: readonly string[];
  /**
   * The results of a match on all of the group's segments, built once: one per bound, then the
   * result without distributions (the default variant), then the one for a bucket past the last bound.
   */
  readonly outcomes: readonly VariantResult[];
}

/** A boolean rollout: a threshold, or a segment group. */
export interface RolloutPlan {
  /** null for a threshold rollout. */
  readonly group: SegmentGroupPlan | null;
  /** float32(percentage), for threshold rollouts. */
  readonly percentage: number;
  readonly value: boolean;
}

/** One prerequisite of a flag, with the results the flag answers when it fails. */
export interface PrerequisitePlan {
  readonly flagKey: string;
  /** The parent's value (boolean) or enabled state (variant) required; null when `variants` is the condition. */
  readonly enabled: boolean | null;
  /** The variants a variant parent may serve; null when `enabled` is the condition. */
  readonly variants: readonly string[] | null;
  readonly booleanFailure: BooleanResult;
  readonly variantFailure: VariantResult;
}

/**
 * Everything evaluation needs of one flag. A flag with schedules, windows or ramps is compiled into
 * phases, one per interval between its boundaries, each a plain plan of the flag as it stands then.
 */
export interface FlagPlan extends CompiledFlag {
  /** No schedule, window, ramp or prerequisite: evaluated as it is, without the clock. */
  readonly plain: boolean;
  /** Sorted epoch milliseconds at which the flag changes; empty when it does not. */
  readonly boundaries: readonly number[];
  /** `phases[i]` holds from `boundaries[i - 1]` (inclusive) to `boundaries[i]`; empty when untimed. */
  readonly phases: readonly FlagPlan[];
  /** All must hold; empty when none. */
  readonly prerequisites: readonly PrerequisitePlan[];
  readonly isVariant: boolean;
  readonly defaultVariantKey: string;
  readonly defaultVariantAttachment: string;
  /** DEFAULT when there is a default variant, UNKNOWN otherwise. */
  readonly baseReason: EvaluationReason;
  /** By rank; only rules with at least one segment. */
  readonly rules: readonly RulePlan[];
  /** By rank. */
  readonly rollouts: readonly RolloutPlan[];
  readonly bucketer: Bucketer;
  /** The variant result of a disabled flag and of one no rule matched, built once. */
  readonly disabledOutcome: VariantResult;
  readonly unmatchedOutcome: VariantResult;
}
