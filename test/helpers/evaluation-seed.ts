/** Seeds namespaces for evaluation tests through the management API, as a user would. */
import type { JsonClient } from '@ensign/testkit';
import { createNamespace, ok } from './api.js';

/** What a seeded namespace holds, with the ids later writes need. */
export interface SeededShop {
  ns: string;
  base: string;
  variants: { blue: string; red: string; gold: string };
  colorRuleId: string;
  thresholdRolloutId: string;
}

/**
 * A namespace with:
 * - `color` (variant, enabled): plan=pro → blue (100%, attachment {"hex":"#00f"}), default variant red;
 * - `off` (variant, disabled), default variant red; `plain` (variant, enabled), no rules, no default;
 * - `new-ui` (boolean, disabled): email suffix @corp.example → true, then 50% → true;
 * - `ids` (variant): entity id `vip` → gold (an entity-id constraint);
 * - `split` (variant): everyone → 50% blue / 50% red.
 */
export async function seedShop(api: JsonClient, prefix = 'eval'): Promise<SeededShop> {
  const ns = await createNamespace(api, prefix);
  const base = `/api/v1/namespaces/${ns}`;
  const post = async (path: string, body: unknown) => ok(await api.post(`${base}${path}`, body), `POST ${path}`);

  await post('/segments', { key: 'pro-users', name: 'Pro users', matchType: 'ALL_MATCH_TYPE' });
  await post('/segments/pro-users/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
  await post('/segments', { key: 'internal', name: 'Internal' });
  await post('/segments/internal/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@corp.example' });
  await post('/segments', { key: 'vips', name: 'VIPs' });
  await post('/segments/vips/constraints', { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'vip' });
  await post('/segments', { key: 'everyone', name: 'Everyone' });

  await post('/flags', { key: 'color', name: 'Color', enabled: true });
  const blue = (await post('/flags/color/variants', { key: 'blue', attachment: '{"hex":"#00f"}' })).id as string;
  const red = (await post('/flags/color/variants', { key: 'red', attachment: '{"hex":"#f00"}' })).id as string;
  ok(await api.put(`${base}/flags/color`, { name: 'Color', enabled: true, defaultVariantId: red }), 'set default variant');
  const colorRuleId = (await post('/flags/color/rules', { segmentKey: 'pro-users', rank: 1 })).id as string;
  await post(`/flags/color/rules/${colorRuleId}/distributions`, { variantId: blue, rollout: 100 });

  await post('/flags', { key: 'off', name: 'Off', enabled: false });
  const offRed = (await post('/flags/off/variants', { key: 'red' })).id as string;
  ok(await api.put(`${base}/flags/off`, { name: 'Off', enabled: false, defaultVariantId: offRed }), 'set default variant');

  await post('/flags', { key: 'plain', name: 'Plain', enabled: true });

  await post('/flags', { key: 'new-ui', name: 'New UI', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  await post('/flags/new-ui/rollouts', { rank: 1, segment: { segmentKey: 'internal', value: true } });
  const thresholdRolloutId = (await post('/flags/new-ui/rollouts', { rank: 2, threshold: { percentage: 50, value: true } })).id as string;

  await post('/flags', { key: 'ids', name: 'IDs', enabled: true });
  const gold = (await post('/flags/ids/variants', { key: 'gold' })).id as string;
  const idsRule = (await post('/flags/ids/rules', { segmentKey: 'vips', rank: 1 })).id as string;
  await post(`/flags/ids/rules/${idsRule}/distributions`, { variantId: gold, rollout: 100 });

  await post('/flags', { key: 'split', name: 'Split', enabled: true });
  const splitBlue = (await post('/flags/split/variants', { key: 'blue' })).id as string;
  const splitRed = (await post('/flags/split/variants', { key: 'red' })).id as string;
  const splitRule = (await post('/flags/split/rules', { segmentKey: 'everyone', rank: 1 })).id as string;
  await post(`/flags/split/rules/${splitRule}/distributions`, { variantId: splitBlue, rollout: 50 });
  await post(`/flags/split/rules/${splitRule}/distributions`, { variantId: splitRed, rollout: 50 });

  return { ns, base, variants: { blue, red, gold }, colorRuleId, thresholdRolloutId };
}

/** The flag keys of `seedShop`, in creation order. */
export const SHOP_FLAGS = ['color', 'off', 'plain', 'new-ui', 'ids', 'split'] as const;
