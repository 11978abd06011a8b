/**
 * A namespace shaped like a real one, so a write's cost is measured against realistic neighbours:
 * 20 segments of 1–2 constraints; a third of the flags are variant flags (2 variants, a default, 1–2
 * rules over segments with 2 distributions each), a fifth boolean flags with a segment and a threshold
 * rollout, the rest plain boolean flags. Seeded random, so every run builds the same namespace.
 */
import { seeded } from '@ensign/testkit';
import type { ModelFlag, ModelRule, SeededNamespace } from './flag-model.js';
import type { Json, ManagementApi } from './management-api.js';

const SEGMENTS = 20;

/** Constraints segments draw from; none matches an empty context, so a variant flag then falls to its default. */
const CONSTRAINTS: Json[] = [
  { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
  { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["team","enterprise"]' },
  { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' },
  { type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'isoneof', value: '["de","fr","nl","at","ch"]' },
  { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true', value: '' },
  { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@corp.example' },
  { type: 'NUMBER_COMPARISON_TYPE', property: 'age_days', operator: 'lt', value: '30' },
];

/** Splits of a rule's two distributions (control, treatment). */
const SPLITS: Array<[number, number]> = [[50, 50], [30, 70], [80, 20], [90, 10], [25, 75]];

/** Which kind the i-th flag is: of every 15, 5 variant flags and 3 boolean flags with rollouts. */
const kindOf = (i: number): ModelFlag['kind'] => (i % 15 < 5 ? 'variant' : i % 15 < 8 ? 'rollouts' : 'plain');

export const flagKey = (i: number): string => `flag-${String(i).padStart(5, '0')}`;

/** Seeds namespace `ns` with `size` flags through `api`; resolves the model of what it made. */
export async function seedNamespaceMix(api: ManagementApi, ns: string, size: number): Promise<SeededNamespace> {
  const random = seeded(size);
  const below = (n: number) => Math.floor(random() * n);
  let calls = 0;
  const send = (method: 'POST' | 'PUT', path: string, body: Json) => {
    calls++;
    return api.send(method, `/api/v1${path}`, body);
  };
  const base = `/namespaces/${ns}`;

  await send('POST', '/namespaces', { key: ns, name: `Write benchmark (${size} flags)` });
  const segmentKeys: string[] = [];
  for (let s = 1; s <= SEGMENTS; s++) {
    const key = `segment-${String(s).padStart(2, '0')}`;
    segmentKeys.push(key);
    await send('POST', `${base}/segments`, { key, name: key, matchType: s % 3 === 0 ? 'ANY_MATCH_TYPE' : 'ALL_MATCH_TYPE' });
    const first = below(CONSTRAINTS.length);
    const picks = s % 2 === 0 ? [first, (first + 1 + below(CONSTRAINTS.length - 1)) % CONSTRAINTS.length] : [first];
    for (const c of picks) await send('POST', `${base}/segments/${key}/constraints`, CONSTRAINTS[c]!);
  }

  const flags: ModelFlag[] = [];
  for (let i = 0; i < size; i++) {
    const kind = kindOf(i);
    const key = flagKey(i);
    const flag: ModelFlag = { key, kind, name: `Flag ${i}`, description: `seeded ${kind} flag`, enabled: random() < 0.8, defaultVariantId: '', variants: [], rules: [], rollouts: [] };
    const type = kind === 'variant' ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE';
    await send('POST', `${base}/flags`, { key, name: flag.name, description: flag.description, enabled: flag.enabled, type });
    if (kind === 'variant') {
      for (const [variantKey, attachment] of [['control', ''], ['treatment', JSON.stringify({ color: 'blue', size: below(10) })]] as const) {
        const v = await send('POST', `${base}/flags/${key}/variants`, { key: variantKey, name: variantKey, attachment });
        flag.variants.push({ id: String(v['id']), key: variantKey, name: variantKey, attachment });
      }
      flag.defaultVariantId = flag.variants[0]!.id;
      await send('PUT', `${base}/flags/${key}`, { name: flag.name, description: flag.description, enabled: flag.enabled, defaultVariantId: flag.defaultVariantId });
      const first = below(SEGMENTS);
      const ruleSegments = random() < 0.5 ? [first] : [first, (first + 1 + below(SEGMENTS - 1)) % SEGMENTS];
      for (const [r, s] of ruleSegments.entries()) {
        const rule = await send('POST', `${base}/flags/${key}/rules`, { segmentKey: segmentKeys[s], rank: r + 1 });
        const modelRule: ModelRule = { id: String(rule['id']), distributions: [] };
        const split = SPLITS[below(SPLITS.length)]!;
        for (const [d, variant] of flag.variants.entries()) {
          const dist = await send('POST', `${base}/flags/${key}/rules/${modelRule.id}/distributions`, { variantId: variant.id, rollout: split[d] });
          modelRule.distributions.push({ id: String(dist['id']), variantId: variant.id, rollout: split[d]! });
        }
        flag.rules.push(modelRule);
      }
    } else if (kind === 'rollouts') {
      const segmentKey = segmentKeys[below(SEGMENTS)]!;
      const bySegment = await send('POST', `${base}/flags/${key}/rollouts`, { rank: 1, segment: { segmentKey, value: true } });
      flag.rollouts.push({ id: String(bySegment['id']), segmentKey, percentage: 0, value: true });
      const percentage = below(101);
      const byThreshold = await send('POST', `${base}/flags/${key}/rollouts`, { rank: 2, threshold: { percentage, value: true } });
      flag.rollouts.push({ id: String(byThreshold['id']), segmentKey: undefined, percentage, value: true });
    }
    flags.push(flag);
  }
  return { key: ns, flags, segmentKeys, calls };
}
