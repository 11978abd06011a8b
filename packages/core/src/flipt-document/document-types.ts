/**
 * One namespace of Flipt's import/export format (`flipt export`, `flipt import`, the declarative
 * `features.yml`), decoded and checked: every version's spelling resolved to one form, every
 * default filled in, so whoever writes or encodes it has no version to think about. Ensign's
 * extension (prerequisites, schedules, windows, ramps) is absent when unset, so a Flipt document
 * decodes to exactly what it did before.
 */
import type { ComparisonType, FlagType, MatchType, SegmentOperator } from '../enums.js';
import type { Prerequisite, RampStep, ValidityWindow } from '../resources.js';
import type { DocumentLocation } from './document-error.js';

export interface FliptDocument {
  namespace: DocumentNamespace;
  /** In document order. */
  flags: DocumentFlag[];
  /** In document order. */
  segments: DocumentSegment[];
  /** Where it was read (set by the decoder), so later checks name the same document. */
  origin?: DocumentLocation;
  /**
   * Not part of the format (Flipt's has no field for it): when each flag and segment was created,
   * as the server the namespace was read from reports it. An import keeps these times for what it
   * creates; no document text carries them.
   */
  createdAt?: CreationTimes;
}

/** Creation times (RFC 3339) by key. */
export interface CreationTimes {
  flags: ReadonlyMap<string, string>;
  segments: ReadonlyMap<string, string>;
}

export interface DocumentNamespace {
  key: string;
  /** The key when the document gives none; used only when the import creates the namespace. */
  name: string;
  description: string;
}

export interface DocumentFlag {
  key: string;
  name: string;
  type: FlagType;
  description: string;
  enabled: boolean;
  /** `{}` when the document has none. */
  metadata: Record<string, unknown>;
  variants: DocumentVariant[];
  /** Variant flags only. */
  rules: DocumentRule[];
  /** Boolean flags only, ranked by position. */
  rollouts: DocumentRollout[];
  /** Ensign's: flags of the namespace that must hold for this one to be served; absent when none. */
  prerequisites?: Prerequisite[];
  /** Ensign's: changes of `enabled` still to come, by time; absent when none. */
  schedules?: DocumentSchedule[];
}

/** From `at` on, the flag is `enabled` (Ensign's). */
export interface DocumentSchedule {
  /** UTC ISO-8601. */
  at: string;
  enabled: boolean;
}

export interface DocumentVariant {
  key: string;
  name: string;
  description: string;
  /** The flag's default variant (at most one per flag). */
  default: boolean;
  /** The attachment as a JSON value (not text); undefined when there is none. */
  attachment: unknown;
}

/** `validFrom` and `validUntil` (Ensign's) are UTC ISO-8601, each absent when unbounded. */
export interface DocumentRule extends ValidityWindow {
  /** One or more keys, de-duplicated in order. */
  segmentKeys: string[];
  /** OR whenever there is a single segment. */
  segmentOperator: SegmentOperator;
  /** The document's rank, or the rule's position + 1 when it gives none (or 0). */
  rank: number;
  distributions: DocumentDistribution[];
}

export interface DocumentDistribution {
  /** The key of one of the flag's variants. */
  variantKey: string;
  /** Percentage, 0..100. */
  rollout: number;
}

export interface DocumentRolloutSegment {
  /** One or more keys, de-duplicated in order. */
  segmentKeys: string[];
  /** OR whenever there is a single segment. */
  segmentOperator: SegmentOperator;
  value: boolean;
}

export interface DocumentRolloutThreshold {
  /** 0..100. */
  percentage: number;
  value: boolean;
  /** Ensign's: later percentages by time, rising from `percentage`; absent when none. */
  ramp?: RampStep[];
}

/** Exactly one of `segment` and `threshold`; a window (Ensign's) on either. */
export type DocumentRollout = ValidityWindow &
  (
    | { description: string; segment: DocumentRolloutSegment; threshold?: undefined }
    | { description: string; threshold: DocumentRolloutThreshold; segment?: undefined }
  );

export interface DocumentSegment {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
  constraints: DocumentConstraint[];
}

export interface DocumentConstraint {
  type: ComparisonType;
  property: string;
  /** Lower-cased. */
  operator: string;
  /** As the management API stores it: datetimes normalised, `""` for operators that compare nothing. */
  value: string;
  description: string;
}
