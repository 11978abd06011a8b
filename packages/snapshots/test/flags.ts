/** Small snapshot flags for the tests. */
import type { SnapshotFlag } from '@ensign/engine';

/** A boolean flag with a threshold rollout of `percentage`, created at `createdAt`. */
export function booleanFlag(key: string, percentage: number, createdAt = '2026-01-01T00:00:00.000Z'): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled: true,
    type: 'BOOLEAN_FLAG_TYPE',
    createdAt,
    updatedAt: createdAt,
    rules: [],
    rollouts: [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage, value: true } }],
  };
}

/** A variant flag whose one rule sends everyone (segment without constraints) to `variantKey`. */
export function variantFlag(key: string, variantKey: string, createdAt = '2026-01-01T00:00:00.000Z'): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled: true,
    type: 'VARIANT_FLAG_TYPE',
    createdAt,
    updatedAt: createdAt,
    rules: [
      {
        id: `r-${key}`,
        rank: 1,
        segmentOperator: 'OR_SEGMENT_OPERATOR',
        segments: [{ key: 'all', name: '', description: '', matchType: 'ALL_SEGMENT_MATCH_TYPE', constraints: [] }],
        distributions: [{ id: '', ruleId: '', variantId: `v-${variantKey}`, variantKey, variantAttachment: '', rollout: 100 }],
      },
    ],
    rollouts: [],
  };
}
