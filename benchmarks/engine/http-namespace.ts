/**
 * The namespace the HTTP benchmark evaluates: 50 variant flags, each with one rule on a segment of two
 * constraints and a 50/50 split, and 50 boolean flags (disabled, so their rollout decides), each with
 * a segment rollout on the same segment. Loads rotate over the flags, so a target is not measured
 * answering one hot flag. Defined once as the engine's snapshot document; seeded from it.
 */
import type { SnapshotDocument, SnapshotFlag, SnapshotSegment } from '@ensign/engine';

export const NAMESPACE = 'default';
export const FLAGS_PER_KIND = 50;
export const VARIANT_KEYS = ['control', 'treatment'] as const;

const numbered = (prefix: string, i: number) => `${prefix}-${String(i + 1).padStart(2, '0')}`;
export const variantFlagKeys: string[] = Array.from({ length: FLAGS_PER_KIND }, (_, i) => numbered('variant', i));
export const booleanFlagKeys: string[] = Array.from({ length: FLAGS_PER_KIND }, (_, i) => numbered('boolean', i));

/** Matches a quarter of the benchmark's contexts (plan `pro` is a third of them, seats ≥ 10 three quarters). */
export const PRO_USERS: SnapshotSegment = {
  key: 'pro-users',
  name: '',
  description: '',
  matchType: 'ALL_SEGMENT_MATCH_TYPE',
  constraints: [
    { id: 'c1', type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
    { id: 'c2', type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' },
  ],
};

const CREATED = '2025-01-01T00:00:00Z';

function variantFlag(key: string): SnapshotFlag {
  const distribution = (variantKey: string) => ({ id: '', ruleId: '', variantId: variantKey, variantKey, variantAttachment: '', rollout: 50 });
  return {
    key,
    name: key,
    description: '',
    enabled: true,
    type: 'VARIANT_FLAG_TYPE',
    createdAt: CREATED,
    updatedAt: CREATED,
    rules: [{ id: '', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [PRO_USERS], distributions: VARIANT_KEYS.map(distribution) }],
    rollouts: [],
  };
}

function booleanFlag(key: string): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled: false,
    type: 'BOOLEAN_FLAG_TYPE',
    createdAt: CREATED,
    updatedAt: CREATED,
    rules: [],
    rollouts: [{ type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [PRO_USERS] } }],
  };
}

/** The document the engine compiles to check a seeded server's answers. */
export function benchNamespaceDocument(): SnapshotDocument {
  return { namespace: { key: NAMESPACE }, flags: [...variantFlagKeys.map(variantFlag), ...booleanFlagKeys.map(booleanFlag)] };
}
