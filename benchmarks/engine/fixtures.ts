/**
 * The benchmark workload: a typical variant flag (2 rules, 3 constraints, a 3-way distribution) and
 * a boolean flag with a segment and a threshold rollout, plus deterministic entity ids and contexts.
 */
import type { SnapshotDocument } from '@ensign/engine';

export const VARIANT_FLAG = 'checkout-layout';
export const BOOLEAN_FLAG = 'new-search';

/** The snapshot document both the engine bench and the seeded server evaluate. */
export function benchmarkDocument(): SnapshotDocument {
  const segment = (key: string, constraints: SnapshotDocument['flags'][number]['rules'][number]['segments'][number]['constraints']) => ({
    key,
    name: '',
    description: '',
    matchType: 'ALL_SEGMENT_MATCH_TYPE' as const,
    constraints,
  });
  const proUsers = segment('pro-users', [
    { id: 'c1', type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
    { id: 'c2', type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' },
  ]);
  const europe = segment('europe', [
    {
      id: 'c3',
      type: 'STRING_CONSTRAINT_COMPARISON_TYPE',
      property: 'country',
      operator: 'isoneof',
      value: '["de","fr","nl","es","it","pl","se"]',
    },
  ]);
  const dist = (variantKey: string, rollout: number) => ({
    id: '',
    ruleId: '',
    variantId: variantKey,
    variantKey,
    variantAttachment: '',
    rollout,
  });
  return {
    namespace: { key: 'default' },
    flags: [
      {
        key: VARIANT_FLAG,
        name: 'Checkout layout',
        description: '',
        enabled: true,
        type: 'VARIANT_FLAG_TYPE',
        createdAt: '2025-01-01T00:00:00Z',
        updatedAt: '2025-01-01T00:00:00Z',
        rules: [
          { id: 'r1', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [proUsers], distributions: [dist('control', 34), dist('compact', 33), dist('wide', 33)] },
          { id: 'r2', rank: 2, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [europe], distributions: [dist('control', 50), dist('compact', 25), dist('wide', 25)] },
        ],
        rollouts: [],
        defaultVariant: { id: 'control', key: 'control', attachment: '' },
      },
      {
        key: BOOLEAN_FLAG,
        name: 'New search',
        description: '',
        enabled: false,
        type: 'BOOLEAN_FLAG_TYPE',
        createdAt: '2025-01-01T00:00:00Z',
        updatedAt: '2025-01-01T00:00:00Z',
        rules: [],
        rollouts: [
          { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [proUsers] } },
          { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 25, value: true } },
        ],
      },
    ],
  };
}

/** A small deterministic PRNG (mulberry32), so every run evaluates the same workload. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` entity ids shaped like real ones (UUID-like hex). */
export function entityIds(count: number, seed = 42): string[] {
  const next = prng(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  return Array.from({ length: count }, () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`);
}

/**
 * Contexts with a few keys, mixed so that every path is taken: some match rule 1, some rule 2,
 * some fall through to the default.
 */
export function contexts(count: number, seed = 7): Array<Record<string, string>> {
  const next = prng(seed);
  const plans = ['free', 'pro', 'team'];
  const countries = ['us', 'de', 'fr', 'br', 'jp', 'nl'];
  return Array.from({ length: count }, () => ({
    plan: plans[Math.floor(next() * plans.length)]!,
    seats: String(Math.floor(next() * 40)),
    country: countries[Math.floor(next() * countries.length)]!,
    app_version: '5.12.0',
  }));
}
