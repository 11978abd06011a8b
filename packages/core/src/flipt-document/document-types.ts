/**
 * One namespace of Flipt's import/export format (`flipt export`, `flipt import`, the declarative
 * `features.yml`), decoded and checked: every version's spelling resolved to one form, every
 * default filled in, so whoever writes or encodes it has no version to think about.
 */
import type { ComparisonType, FlagType, MatchType, SegmentOperator } from '../enums.js';
import type { DocumentLocation } from './document-error.js';

export interface FliptDocument {
  namespace: DocumentNamespace;
  /** In document order. */
  flags: DocumentFlag[];
  /** In document order. */
  segments: DocumentSegment[];
  /** Where it was read (set by the decoder), so later checks name the same document. */
  origin?: DocumentLocation;
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

export interface DocumentRule {
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
}

/** Exactly one of `segment` and `threshold`. */
export type DocumentRollout =
  | { description: string; segment: DocumentRolloutSegment; threshold?: undefined }
  | { description: string; threshold: DocumentRolloutThreshold; segment?: undefined };

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
