/**
 * Snapshot flags shaped like the write benchmark's namespace (`benchmarks/writes/namespace-mix.ts`),
 * built directly as documents: 20 segments of 1–2 constraints; of every 15 flags, 5 variant flags
 * (2 variants, a default, 1–2 rules with 2 distributions), 3 boolean flags with a segment and a
 * threshold rollout, the rest plain boolean flags. Ids are UUID-shaped, as the store's are. Seeded,
 * so every call with the same size gives the same document.
 */
import type { SnapshotConstraint, SnapshotFlag, SnapshotSegment } from '@ensign/engine';
import { seeded } from './random-edits.js';

const CONSTRAINTS: Array<Omit<SnapshotConstraint, 'id'>> = [
  { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
  { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["team","enterprise"]' },
  { type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' },
  { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'country', operator: 'isoneof', value: '["de","fr","nl","at","ch"]' },
  { type: 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE', property: 'beta', operator: 'true', value: '' },
  { type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@corp.example' },
  { type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE', property: 'age_days', operator: 'lt', value: '30' },
];

const SPLITS: Array<[number, number]> = [[50, 50], [30, 70], [80, 20], [90, 10], [25, 75]];

/** The key of the i-th flag of a mixed namespace. */
export const mixedFlagKey = (i: number): string => `flag-${String(i).padStart(5, '0')}`;

/** `size` flags of the write benchmark's mix, in canonical order (created one millisecond apart). */
export function mixedSnapshotFlags(size: number, seed = size): SnapshotFlag[] {
  const random = seeded(seed);
  const below = (n: number) => Math.floor(random() * n);
  const uuid = () => Array.from({ length: 4 }, () => below(0x10000).toString(16).padStart(4, '0')).join('') + '-4000-8000-0000-' + below(0x1000000).toString(16).padStart(12, '0');
  const segments: SnapshotSegment[] = Array.from({ length: 20 }, (_, s) => {
    const first = below(CONSTRAINTS.length);
    const picks = s % 2 === 1 ? [first, (first + 1 + below(CONSTRAINTS.length - 1)) % CONSTRAINTS.length] : [first];
    return {
      key: `segment-${String(s + 1).padStart(2, '0')}`,
      name: '',
      description: '',
      matchType: (s + 1) % 3 === 0 ? 'ANY_SEGMENT_MATCH_TYPE' : 'ALL_SEGMENT_MATCH_TYPE',
      constraints: picks.map((c) => ({ id: uuid(), ...CONSTRAINTS[c]! })),
    };
  });
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return Array.from({ length: size }, (_, i): SnapshotFlag => {
    const key = mixedFlagKey(i);
    const at = new Date(start + i).toISOString();
    const kind = i % 15 < 5 ? 'variant' : i % 15 < 8 ? 'rollouts' : 'plain';
    const flag: SnapshotFlag = {
      key,
      name: `Flag ${i}`,
      description: `seeded ${kind} flag`,
      enabled: random() < 0.8,
      type: kind === 'variant' ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE',
      createdAt: at,
      updatedAt: at,
      rules: [],
      rollouts: [],
    };
    if (kind === 'variant') {
      const variants = [
        { id: uuid(), key: 'control', attachment: '' },
        { id: uuid(), key: 'treatment', attachment: JSON.stringify({ color: 'blue', size: below(10) }) },
      ];
      flag.defaultVariant = variants[0]!;
      const first = below(segments.length);
      const picks = random() < 0.5 ? [first] : [first, (first + 1 + below(segments.length - 1)) % segments.length];
      flag.rules = picks.map((s, r) => {
        const split = SPLITS[below(SPLITS.length)]!;
        return {
          id: uuid(),
          rank: r + 1,
          segmentOperator: 'OR_SEGMENT_OPERATOR',
          segments: [segments[s]!],
          distributions: variants.map((v, d) => ({ id: '', ruleId: '', variantId: v.id, variantKey: v.key, variantAttachment: v.attachment, rollout: split[d]! })),
        };
      });
    } else if (kind === 'rollouts') {
      flag.rollouts = [
        { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segments[below(segments.length)]!] } },
        { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: below(101), value: true } },
      ];
    }
    return flag;
  });
}
