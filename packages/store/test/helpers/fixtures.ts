import type { CreateRollout, CreateRule, Flag, FlagType, Segment } from '@ensign/core';
import type { SqlStore } from '@ensign/store';

/** A flag with the given variant keys. */
export async function flagWithVariants(store: SqlStore, namespaceKey: string, key: string, variantKeys: string[] = []): Promise<Flag> {
  await createFlag(store, namespaceKey, key, 'VARIANT_FLAG_TYPE');
  for (const v of variantKeys) {
    await store.variants.create({ namespaceKey, flagKey: key, key: v, name: v.toUpperCase(), description: '', attachment: '' });
  }
  return store.flags.get(namespaceKey, key);
}

export function createFlag(store: SqlStore, namespaceKey: string, key: string, type: FlagType = 'VARIANT_FLAG_TYPE'): Promise<Flag> {
  return store.flags.create({ namespaceKey, key, name: key, description: '', enabled: true, type, metadata: undefined });
}

export function createSegment(store: SqlStore, namespaceKey: string, key: string): Promise<Segment> {
  return store.segments.create({ namespaceKey, key, name: key, description: '', matchType: 'ALL_MATCH_TYPE' });
}

export function ruleRequest(namespaceKey: string, flagKey: string, segmentKeys: string[], rank: number): CreateRule {
  return { namespaceKey, flagKey, segmentKey: '', segmentKeys, segmentOperator: 'OR_SEGMENT_OPERATOR', rank };
}

export function thresholdRollout(namespaceKey: string, flagKey: string, rank: number, percentage = 50): CreateRollout {
  return { namespaceKey, flagKey, rank, description: '', segment: undefined, threshold: { percentage, value: true } };
}

export function segmentRollout(namespaceKey: string, flagKey: string, rank: number, segmentKeys: string[]): CreateRollout {
  return {
    namespaceKey,
    flagKey,
    rank,
    description: '',
    segment: { segmentKey: '', segmentKeys, segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
    threshold: undefined,
  };
}
