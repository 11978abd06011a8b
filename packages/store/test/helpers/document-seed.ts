/** A namespace that uses every part of the document format, written through the repositories as the API would. */
import type { FliptDocument } from '@ensign/core';
import type { SqlStore } from '@ensign/store';

export async function seedEverything(store: SqlStore, ns: string): Promise<void> {
  const segment = (key: string, matchType: 'ALL_MATCH_TYPE' | 'ANY_MATCH_TYPE', description = '') =>
    store.segments.create({ namespaceKey: ns, key, name: key.toUpperCase(), description, matchType });
  const constraint = (segmentKey: string, type: 'STRING_COMPARISON_TYPE' | 'NUMBER_COMPARISON_TYPE' | 'ENTITY_ID_COMPARISON_TYPE', property: string, operator: string, value: string, description = '') =>
    store.constraints.create({ namespaceKey: ns, segmentKey, type, property, operator, value, description });
  await segment('beta', 'ANY_MATCH_TYPE', 'paying testers');
  await constraint('beta', 'STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro', 'pro plan');
  await constraint('beta', 'NUMBER_COMPARISON_TYPE', 'age', 'gte', '21');
  await segment('staff', 'ALL_MATCH_TYPE');
  await constraint('staff', 'ENTITY_ID_COMPARISON_TYPE', 'entityId', 'isoneof', '["ann","bob"]');
  await segment('internal', 'ALL_MATCH_TYPE');

  await store.flags.create({ namespaceKey: ns, key: 'color', name: 'Color', description: 'the button', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: { team: 'web', owners: ['ann'] } });
  const blue = await store.variants.create({ namespaceKey: ns, flagKey: 'color', key: 'blue', name: 'Blue', description: '', attachment: '{"hex":"#00f","rgb":[0,0,255]}' });
  const red = await store.variants.create({ namespaceKey: ns, flagKey: 'color', key: 'red', name: 'Red', description: 'warm', attachment: '' });
  await store.flags.update({ namespaceKey: ns, key: 'color', name: 'Color', description: 'the button', enabled: true, defaultVariantId: red.id, metadata: undefined });
  const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'color', segmentKey: '', segmentKeys: ['beta'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
  await store.distributions.create({ namespaceKey: ns, flagKey: 'color', ruleId: rule.id, variantId: blue.id, rollout: 30 });
  await store.distributions.create({ namespaceKey: ns, flagKey: 'color', ruleId: rule.id, variantId: red.id, rollout: 70 });
  await store.rules.create({ namespaceKey: ns, flagKey: 'color', segmentKey: '', segmentKeys: ['beta', 'staff'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });

  await store.flags.create({ namespaceKey: ns, key: 'dark', name: 'Dark mode', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
  const rollout = (rank: number, description: string, segment: { keys: string[]; and?: boolean; value: boolean } | undefined, threshold?: number) =>
    store.rollouts.create({
      namespaceKey: ns,
      flagKey: 'dark',
      rank,
      description,
      segment: segment && { segmentKey: '', segmentKeys: segment.keys, segmentOperator: segment.and ? 'AND_SEGMENT_OPERATOR' : 'OR_SEGMENT_OPERATOR', value: segment.value },
      threshold: threshold === undefined ? undefined : { percentage: threshold, value: true },
    });
  await rollout(1, 'insiders', { keys: ['internal'], value: true });
  await rollout(2, '', { keys: ['beta', 'staff'], and: true, value: false });
  await rollout(3, 'some', undefined, 40);

  await store.flags.create({ namespaceKey: ns, key: 'plain', name: 'Plain', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
}

/** The document moved to another namespace, as an export of one namespace imported into another. */
export const inNamespace = (doc: FliptDocument, key: string): FliptDocument => ({ ...doc, namespace: { ...doc.namespace, key } });

/** A document of `count` variant flags, each with two variants and a rule splitting one segment between them. */
export function manyFlags(key: string, count: number): FliptDocument {
  return {
    namespace: { key, name: key, description: '' },
    segments: [{ key: 'everyone', name: 'Everyone', description: '', matchType: 'ALL_MATCH_TYPE', constraints: [] }],
    flags: Array.from({ length: count }, (_, i) => ({
      key: `flag-${String(i).padStart(5, '0')}`,
      name: `Flag ${i}`,
      type: 'VARIANT_FLAG_TYPE' as const,
      description: '',
      enabled: true,
      metadata: {},
      variants: [
        { key: 'on', name: 'On', description: '', default: i % 2 === 0, attachment: { n: i } },
        { key: 'off', name: 'Off', description: '', default: false, attachment: undefined },
      ],
      rules: [{ segmentKeys: ['everyone'], segmentOperator: 'OR_SEGMENT_OPERATOR' as const, rank: 1, distributions: [{ variantKey: 'on', rollout: 50 }] }],
      rollouts: [],
    })),
  };
}
