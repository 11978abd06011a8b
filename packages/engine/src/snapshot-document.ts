/**
 * The namespace snapshot document: Flipt's `EvaluationNamespaceSnapshot` JSON, the one format
 * served at `/internal/v1/evaluation/snapshot/namespace/{key}`, carried on the bus, and compiled
 * by `compileSnapshot`. Enum spellings are the evaluation ones (`ALL_SEGMENT_MATCH_TYPE`, …).
 *
 * Ensign extends it with schedules, validity windows, ramps and prerequisites. Those fields are
 * absent when unset, so a document without them (and its checksum) is Flipt's; Flipt clients are
 * served `effectiveSnapshotFlag`'s folding of them, never the fields themselves. Times are RFC 3339
 * (the control plane writes UTC ISO-8601 with milliseconds).
 */

export type SnapshotFlagType = 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';
export type SnapshotMatchType = 'ALL_SEGMENT_MATCH_TYPE' | 'ANY_SEGMENT_MATCH_TYPE';
export type SnapshotSegmentOperator = 'OR_SEGMENT_OPERATOR' | 'AND_SEGMENT_OPERATOR';
export type SnapshotRolloutType = 'UNKNOWN_ROLLOUT_TYPE' | 'SEGMENT_ROLLOUT_TYPE' | 'THRESHOLD_ROLLOUT_TYPE';
export type SnapshotComparisonType =
  | 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE'
  | 'STRING_CONSTRAINT_COMPARISON_TYPE'
  | 'NUMBER_CONSTRAINT_COMPARISON_TYPE'
  | 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE'
  | 'DATETIME_CONSTRAINT_COMPARISON_TYPE'
  | 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE';

export interface SnapshotConstraint {
  id: string;
  type: SnapshotComparisonType;
  property: string;
  operator: string;
  value: string;
}

/** Segments are inlined where they are used; `name`/`description` are `""` as in Flipt. */
export interface SnapshotSegment {
  key: string;
  name: string;
  description: string;
  matchType: SnapshotMatchType;
  constraints: SnapshotConstraint[];
}

/** COMPAT(flipt): `id` and `ruleId` are always `""` in Flipt's snapshot. */
export interface SnapshotDistribution {
  id: string;
  ruleId: string;
  variantId: string;
  variantKey: string;
  variantAttachment: string;
  rollout: number;
}

/** When a rule or rollout counts: from `validFrom` (inclusive) until `validUntil` (exclusive); either bound optional. */
export interface SnapshotWindow {
  validFrom?: string;
  validUntil?: string;
}

export interface SnapshotRule extends SnapshotWindow {
  id: string;
  rank: number;
  segmentOperator: SnapshotSegmentOperator;
  segments: SnapshotSegment[];
  /** Ordered by creation. */
  distributions: SnapshotDistribution[];
}

/** From `at` on, a threshold rollout's percentage is `percentage`. */
export interface SnapshotRampStep {
  at: string;
  percentage: number;
}

export interface SnapshotThreshold {
  percentage: number;
  value: boolean;
  /** Strictly later times; the last step at or before a time gives the percentage, `percentage` before the first. */
  ramp?: SnapshotRampStep[];
}

export interface SnapshotRollout extends SnapshotWindow {
  type: SnapshotRolloutType;
  rank: number;
  segment?: { value: boolean; segmentOperator: SnapshotSegmentOperator; segments: SnapshotSegment[] };
  threshold?: SnapshotThreshold;
}

/** From `at` on, the flag is `enabled`. */
export interface SnapshotSchedule {
  at: string;
  enabled: boolean;
}

/**
 * Another flag of the namespace that must hold for this one to be served: exactly one of `enabled`
 * (the parent's value, boolean parent, or its enabled state, variant parent) and `variants` (the
 * variant a variant parent serves the same entity).
 */
export interface SnapshotPrerequisite {
  flagKey: string;
  enabled?: boolean;
  variants?: string[];
}

export interface SnapshotVariantRef {
  id: string;
  key: string;
  attachment: string;
}

export interface SnapshotFlag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: SnapshotFlagType;
  createdAt: string;
  updatedAt: string;
  /** Ordered by rank; each rule once, whatever its segment count. */
  rules: SnapshotRule[];
  /** Ordered by rank. */
  rollouts: SnapshotRollout[];
  defaultVariant?: SnapshotVariantRef;
  /** All must hold, in order; the first that fails decides. */
  prerequisites?: SnapshotPrerequisite[];
  /** Pending schedules, ordered by `at`: the last one at or before a time gives `enabled`. */
  schedules?: SnapshotSchedule[];
}

export interface SnapshotDocument {
  namespace: { key: string };
  /** In flag-creation order. */
  flags: SnapshotFlag[];
}

/** A document with what identifies its version: the namespace revision and a checksum of the document. */
export interface NamespaceSnapshot {
  namespaceKey: string;
  /** The namespace's revision in the database; a snapshot not newer than the one held is ignored. */
  revision: number;
  /** Hex SHA-256 of the document's canonical JSON; ETags derive from it. */
  checksum: string;
  document: SnapshotDocument;
}
