/** Small builders for snapshot documents, so each test states only what it is about. */
import type {
  SnapshotComparisonType,
  SnapshotConstraint,
  SnapshotDistribution,
  SnapshotDocument,
  SnapshotFlag,
  SnapshotRollout,
  SnapshotRule,
  SnapshotSegment,
  SnapshotSegmentOperator,
} from '@ensign/engine';

export const ENV = { now: (): number => Date.parse('2025-06-01T00:00:00Z') };

export function constraint(
  type: SnapshotComparisonType,
  property: string,
  operator: string,
  value = '',
): SnapshotConstraint {
  return { id: `${property}-${operator}`, type, property, operator, value };
}

export function segment(key: string, constraints: SnapshotConstraint[] = [], match: 'ALL' | 'ANY' = 'ALL'): SnapshotSegment {
  return { key, name: '', description: '', matchType: `${match}_SEGMENT_MATCH_TYPE`, constraints };
}

export function dist(variantKey: string, rollout: number, variantAttachment = ''): SnapshotDistribution {
  return { id: '', ruleId: '', variantId: `v-${variantKey}`, variantKey, variantAttachment, rollout };
}

export function rule(
  rank: number,
  segments: SnapshotSegment[],
  distributions: SnapshotDistribution[] = [],
  operator: 'OR' | 'AND' = 'OR',
): SnapshotRule {
  return { id: `rule-${rank}`, rank, segmentOperator: `${operator}_SEGMENT_OPERATOR`, segments, distributions };
}

export function variantFlag(
  key: string,
  rules: SnapshotRule[],
  options: { enabled?: boolean; defaultVariant?: { key: string; attachment?: string } } = {},
): SnapshotFlag {
  const flag: SnapshotFlag = {
    key,
    name: key,
    description: '',
    enabled: options.enabled ?? true,
    type: 'VARIANT_FLAG_TYPE',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    rules,
    rollouts: [],
  };
  if (options.defaultVariant !== undefined) {
    flag.defaultVariant = { id: `v-${options.defaultVariant.key}`, key: options.defaultVariant.key, attachment: options.defaultVariant.attachment ?? '' };
  }
  return flag;
}

export function threshold(rank: number, percentage: number, value = true): SnapshotRollout {
  return { type: 'THRESHOLD_ROLLOUT_TYPE', rank, threshold: { percentage, value } };
}

export function segmentRollout(
  rank: number,
  segments: SnapshotSegment[],
  value = true,
  operator: SnapshotSegmentOperator = 'OR_SEGMENT_OPERATOR',
): SnapshotRollout {
  return { type: 'SEGMENT_ROLLOUT_TYPE', rank, segment: { value, segmentOperator: operator, segments } };
}

export function booleanFlag(key: string, rollouts: SnapshotRollout[], enabled = true): SnapshotFlag {
  return {
    key,
    name: key,
    description: '',
    enabled,
    type: 'BOOLEAN_FLAG_TYPE',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    rules: [],
    rollouts,
  };
}

export function doc(...flags: SnapshotFlag[]): SnapshotDocument {
  return { namespace: { key: 'default' }, flags };
}

/** A seeded PRNG (mulberry32): property tests are random in shape but repeatable. */
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

/** A random UUID-shaped id from `next`. */
export function randomId(next: () => number): string {
  let s = '';
  for (let i = 0; i < 32; i++) {
    if (i === 8 || i === 12 || i === 16 || i === 20) s += '-';
    s += Math.floor(next() * 16).toString(16);
  }
  return s;
}

/** An ISO time `ms` epoch milliseconds stand for. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A clock standing at `ms` that counts how often it is read. */
export function countingClock(ms: number): { now(): number; reads: number } {
  return {
    reads: 0,
    now() {
      this.reads++;
      return ms;
    },
  };
}

/** The environment of an evaluation at `ms`. */
export const at = (ms: number) => ({ now: (): number => ms });
