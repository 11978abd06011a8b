/**
 * Management resources exactly as they travel on the wire (Flipt v1 JSON, lowerCamelCase,
 * zero values present). Timestamps are RFC 3339 UTC strings.
 */
import type { Actor } from './change-record.js';
import type { ComparisonType, FlagType, MatchType, RolloutType, SegmentOperator } from './enums.js';

/** The key every empty `namespaceKey` resolves to. */
export const DEFAULT_NAMESPACE = 'default';

export interface Namespace {
  key: string;
  name: string;
  description: string;
  protected: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Variant {
  id: string;
  namespaceKey: string;
  flagKey: string;
  key: string;
  name: string;
  description: string;
  /** A JSON document as a string, compacted; `""` when there is none. */
  attachment: string;
  createdAt: string;
  updatedAt: string;
}

export interface Flag {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
  createdAt: string;
  updatedAt: string;
  /** Ordered by creation. */
  variants: Variant[];
  /** Omitted when the flag has no default variant. */
  defaultVariant?: Variant;
  /** Omitted by a single get when unset; lists report `{}` (Flipt's SQL store does the same). */
  metadata?: Record<string, unknown>;
  /** Ensign's extension: flags that must hold for this one to be served; absent when none. */
  prerequisites?: Prerequisite[];
}

/**
 * A flag this one depends on, with what it must give: `enabled` (a boolean flag's value for the
 * entity, a variant flag's state) or `variants` (the variant a variant flag serves the entity).
 * Exactly one of the two is set.
 */
export interface Prerequisite {
  flagKey: string;
  enabled?: boolean;
  variants?: string[];
}

/** One step of a threshold rollout's ramp: from `at` on, the percentage is `percentage`. */
export interface RampStep {
  /** RFC 3339 UTC. */
  at: string;
  percentage: number;
}

/** When a rule or rollout applies: from `validFrom` (inclusive) until `validUntil` (exclusive). */
export interface ValidityWindow {
  /** RFC 3339 UTC; absent when unbounded. */
  validFrom?: string;
  validUntil?: string;
}

export type FlagScheduleStatus = 'pending' | 'applied' | 'cancelled';

/** A flag's enabled state, changed at a time (Ensign's extension). */
export interface FlagSchedule {
  id: string;
  namespaceKey: string;
  flagKey: string;
  /** RFC 3339 UTC. */
  at: string;
  enabled: boolean;
  status: FlagScheduleStatus;
  createdAt: string;
  /** When the change took effect; absent until applied. */
  appliedAt?: string;
  /** Who scheduled it; absent when authentication is off. */
  createdBy?: Actor;
}

export interface Constraint {
  id: string;
  namespaceKey: string;
  segmentKey: string;
  type: ComparisonType;
  property: string;
  /** Lower-cased. */
  operator: string;
  value: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface Segment {
  namespaceKey: string;
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
  /** Ordered by creation. */
  constraints: Constraint[];
  createdAt: string;
  updatedAt: string;
}

export interface Distribution {
  id: string;
  ruleId: string;
  variantId: string;
  /** Percentage, 0..100. */
  rollout: number;
  createdAt: string;
  updatedAt: string;
}

export interface Rule extends ValidityWindow {
  id: string;
  namespaceKey: string;
  flagKey: string;
  /** Set when the rule has exactly one segment; `""` otherwise. */
  segmentKey: string;
  /** Set when the rule has two or more segments; `[]` otherwise. */
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  /** Ordered by creation. */
  distributions: Distribution[];
  rank: number;
  createdAt: string;
  updatedAt: string;
}

export interface RolloutSegment {
  /** Same one-vs-many convention as `Rule`. */
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  value: boolean;
}

export interface RolloutThreshold {
  percentage: number;
  value: boolean;
  /** Ensign's extension: later percentages, rising, by time; absent when none. */
  ramp?: RampStep[];
}

export interface Rollout extends ValidityWindow {
  id: string;
  namespaceKey: string;
  flagKey: string;
  type: RolloutType;
  rank: number;
  description: string;
  createdAt: string;
  updatedAt: string;
  /** Present on SEGMENT_ROLLOUT_TYPE. */
  segment?: RolloutSegment;
  /** Present on THRESHOLD_ROLLOUT_TYPE. */
  threshold?: RolloutThreshold;
}

/** One page of a list, before the transport turns `nextOffset` into a page token. */
export interface Page<T> {
  items: T[];
  /** Every item of the collection, whatever the page. */
  totalCount: number;
  /** The offset of the next page, or undefined on the last page. */
  nextOffset: number | undefined;
}
