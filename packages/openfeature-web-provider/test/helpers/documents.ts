/** Hand-written snapshot documents for the provider's tests. */
import type { SnapshotDistribution, SnapshotDocument, SnapshotFlag, SnapshotRule, SnapshotSegment } from '@ensign/engine';

const AT = '2026-01-01T00:00:00Z';

export const segment = (key: string, constraints: Array<[property: string, value: string]> = []): SnapshotSegment => ({
  key,
  name: '',
  description: '',
  matchType: 'ALL_SEGMENT_MATCH_TYPE',
  constraints: constraints.map(([property, value], i) => ({ id: `${key}-${i}`, type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property, operator: 'eq', value })),
});

export const flag = (key: string, fields: Partial<SnapshotFlag> = {}): SnapshotFlag => ({
  key,
  name: key,
  description: '',
  enabled: true,
  type: 'VARIANT_FLAG_TYPE',
  createdAt: AT,
  updatedAt: AT,
  rules: [],
  rollouts: [],
  ...fields,
});

export const distribution = (variantKey: string, rollout: number, variantAttachment = ''): SnapshotDistribution => ({
  id: '',
  ruleId: '',
  variantId: `v-${variantKey}`,
  variantKey,
  variantAttachment,
  rollout,
});

export const rule = (rank: number, segments: SnapshotSegment[], distributions: SnapshotDistribution[], fields: Partial<SnapshotRule> = {}): SnapshotRule => ({
  id: `r-${rank}`,
  rank,
  segmentOperator: 'OR_SEGMENT_OPERATOR',
  segments,
  distributions,
  ...fields,
});

export const PRO = segment('pro', [['plan', 'pro']]);
export const EVERYONE = segment('everyone');

/**
 * - `color`: plan=pro → blue (attachment `{"hex":"#00f"}`), default variant red;
 * - `split`: everyone → 50 % a / 50 % b;
 * - `off`: disabled, default variant red; `plain`: enabled, nothing to serve;
 * - `beta` (boolean, disabled): pro → true, then a 50 % threshold → true;
 * - `gated`: served only where `beta` is true (else its default variant, red).
 */
export function shopDocument(): SnapshotDocument {
  const red = { id: 'v-red', key: 'red', attachment: '{"hex":"#f00"}' };
  return {
    namespace: { key: 'shop' },
    flags: [
      flag('color', { rules: [rule(1, [PRO], [distribution('blue', 100, '{"hex":"#00f"}')])], defaultVariant: red }),
      flag('split', { rules: [rule(1, [EVERYONE], [distribution('a', 50), distribution('b', 50)])] }),
      flag('off', { enabled: false, defaultVariant: red }),
      flag('plain'),
      flag('beta', {
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [
          { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [PRO] } },
          { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 50, value: true } },
        ],
      }),
      flag('gated', { rules: [rule(1, [EVERYONE], [distribution('blue', 100)])], defaultVariant: red, prerequisites: [{ flagKey: 'beta', enabled: true }] }),
    ],
  };
}

/** `document` with `key` replaced by what `change` makes of it. */
export function withFlag(document: SnapshotDocument, key: string, change: (flag: SnapshotFlag) => SnapshotFlag): SnapshotDocument {
  return { ...document, flags: document.flags.map((f) => (f.key === key ? change(f) : f)) };
}
