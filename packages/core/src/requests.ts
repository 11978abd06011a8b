/**
 * Management requests after decoding and validation. Decoders fill every field (absent strings
 * are `""`); validators normalise them (segment keys merged into `segmentKeys`, operators
 * lower-cased, constraint values normalised), so the store writes them as they are.
 */
import type { ComparisonType, FlagType, MatchType, SegmentOperator } from './enums.js';
import type { Prerequisite, RampStep } from './resources.js';

/**
 * A rule's or rollout's validity window as a request sends it: a bound is undefined when not sent
 * (an update leaves it as stored), `""` to clear it, otherwise RFC 3339 rewritten in UTC.
 */
export interface WindowInput {
  validFrom?: string | undefined;
  validUntil?: string | undefined;
}

/** `limit` 0 means every item. `offset` has been resolved from a page token when one was sent. */
export interface PageRequest {
  limit: number;
  offset: number;
}

export interface CreateNamespace {
  key: string;
  name: string;
  description: string;
}
export type UpdateNamespace = CreateNamespace;

export interface CreateFlag {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
  /** Undefined: not sent. */
  metadata: Record<string, unknown> | undefined;
  /** Undefined: not sent (none). */
  prerequisites?: Prerequisite[] | undefined;
}

export interface UpdateFlag {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  /** `""` clears the default variant. */
  defaultVariantId: string;
  /**
   * Ensign's extension: the default variant by key, for a variant made earlier in the same change
   * request (it has no id to send yet); undefined or `""` when not sent.
   */
  defaultVariantKey?: string | undefined;
  /** Undefined: leave as is; `{}`: clear; otherwise replace. */
  metadata: Record<string, unknown> | undefined;
  /** Undefined: leave as is; `[]`: clear; otherwise replace. */
  prerequisites?: Prerequisite[] | undefined;
}

export interface CreateVariant {
  namespaceKey: string;
  flagKey: string;
  key: string;
  name: string;
  description: string;
  /** Compacted JSON, or `""`. */
  attachment: string;
}
export interface UpdateVariant extends CreateVariant {
  id: string;
}

export interface CreateSegment {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
}
export type UpdateSegment = CreateSegment;

export interface CreateConstraint {
  namespaceKey: string;
  segmentKey: string;
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}
export interface UpdateConstraint extends CreateConstraint {
  id: string;
}

export interface CreateRule extends WindowInput {
  namespaceKey: string;
  flagKey: string;
  /** After validation: `""`; the key has been moved into `segmentKeys`. */
  segmentKey: string;
  /** After validation: one or more keys, de-duplicated in order. */
  segmentKeys: string[];
  /** After validation: OR whenever there is a single segment. */
  segmentOperator: SegmentOperator;
  rank: number;
}
export interface UpdateRule extends WindowInput {
  namespaceKey: string;
  flagKey: string;
  id: string;
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

/** Ranks 1..n are assigned in the order of `ids`. */
export interface OrderItems {
  namespaceKey: string;
  flagKey: string;
  ids: string[];
}

export interface CreateDistribution {
  namespaceKey: string;
  flagKey: string;
  ruleId: string;
  variantId: string;
  rollout: number;
}
export interface UpdateDistribution extends CreateDistribution {
  id: string;
}
export interface DeleteDistribution {
  namespaceKey: string;
  flagKey: string;
  ruleId: string;
  id: string;
  variantId: string;
}

export interface RolloutSegmentInput {
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  value: boolean;
}
export interface RolloutThresholdInput {
  percentage: number;
  value: boolean;
  /** Undefined: not sent (an update leaves the stored ramp); `[]` clears it. */
  ramp?: RampStep[] | undefined;
}

export interface CreateRollout extends WindowInput {
  namespaceKey: string;
  flagKey: string;
  rank: number;
  description: string;
  /** Exactly one of segment / threshold after validation. */
  segment: RolloutSegmentInput | undefined;
  threshold: RolloutThresholdInput | undefined;
}
export interface UpdateRollout extends WindowInput {
  namespaceKey: string;
  flagKey: string;
  id: string;
  description: string;
  segment: RolloutSegmentInput | undefined;
  threshold: RolloutThresholdInput | undefined;
}

/** POST /flags/{flagKey}/schedules. */
export interface CreateSchedule {
  namespaceKey: string;
  flagKey: string;
  /** RFC 3339 rewritten in UTC; `""` when not sent. */
  at: string;
  enabled: boolean;
}

/** One schedule of a flag, by id. */
export interface ScheduleRef {
  namespaceKey: string;
  flagKey: string;
  id: string;
}
