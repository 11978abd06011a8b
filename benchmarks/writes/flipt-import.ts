/**
 * The shape of Flipt's own integration-test data, made the way Flipt's importer makes it: one
 * management call at a time, per namespace the flags with their variants, then the segments with their
 * constraints, then every flag's rules in rank order, each followed by its distributions.
 * 2 namespaces × (1 + 50 flags + 100 variants + 50 segments + 50 constraints + 2,500 rules + 5,000
 * distributions) = 15,502 calls.
 */
import type { ManagementApi } from './management-api.js';

export const IMPORT_NAMESPACES = ['imported-1', 'imported-2'];
const FLAGS = 50;
const SEGMENTS = 50;
const VARIANTS = ['variant_001', 'variant_002'];

const numbered = (prefix: string, n: number) => `${prefix}_${String(n).padStart(3, '0')}`;

/** Imports one namespace; resolves the number of calls it made. */
async function importNamespace(api: ManagementApi, ns: string): Promise<number> {
  let calls = 0;
  const send = (path: string, body: Record<string, unknown>) => {
    calls++;
    return api.send('POST', `/api/v1${path}`, body);
  };
  const base = `/namespaces/${ns}`;
  await send('/namespaces', { key: ns, name: ns, description: 'Flipt integration-test data' });
  const variantIds = new Map<string, string[]>();
  for (let f = 1; f <= FLAGS; f++) {
    const key = numbered('flag', f);
    await send(`${base}/flags`, { key, name: key.toUpperCase(), description: 'Some Description', enabled: true, type: 'VARIANT_FLAG_TYPE' });
    const ids: string[] = [];
    for (const variant of VARIANTS) {
      ids.push(String((await send(`${base}/flags/${key}/variants`, { key: variant, name: variant.toUpperCase(), description: 'Some Description' }))['id']));
    }
    variantIds.set(key, ids);
  }
  for (let s = 1; s <= SEGMENTS; s++) {
    const key = numbered('segment', s);
    await send(`${base}/segments`, { key, name: key.toUpperCase(), description: 'Some Segment Description', matchType: 'ANY_MATCH_TYPE' });
    await send(`${base}/segments/${key}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'in_segment', operator: 'eq', value: key });
  }
  for (const [flagKey, ids] of variantIds) {
    for (let s = 1; s <= SEGMENTS; s++) {
      const rule = await send(`${base}/flags/${flagKey}/rules`, { segmentKey: numbered('segment', s), rank: s });
      for (const variantId of ids) await send(`${base}/flags/${flagKey}/rules/${String(rule['id'])}/distributions`, { variantId, rollout: 50 });
    }
  }
  return calls;
}

/** Imports every namespace in turn; resolves the number of calls made. */
export async function importFliptShape(api: ManagementApi): Promise<number> {
  let calls = 0;
  for (const ns of IMPORT_NAMESPACES) calls += await importNamespace(api, ns);
  return calls;
}
