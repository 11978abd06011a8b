/**
 * The namespace the web provider's end-to-end test evaluates, made through the API: every kind of
 * answer the provider gives, for the contexts `plan=beta` and `plan=free`.
 * - `checkout-button`: beta testers → 50 % blue / 50 % green (SPLIT), else the default variant red;
 * - `banner`: everyone → spring (one variant, TARGETING_MATCH), with an attachment;
 * - `legacy-nav`: disabled; `empty`: enabled, nothing to serve;
 * - `new-search` (boolean, disabled): beta testers → true, then a 30 % threshold → true;
 * - `dark-mode` (boolean, enabled, no rollouts): true for everyone (DEFAULT);
 * - `search-banner`: served (sunrise) only where `new-search` is true for the same entity.
 */
import type { JsonClient } from '@ensign/testkit';
import { ok } from './api.js';

export const SHOP = 'shop';

async function variantFlag(api: JsonClient, key: string, variants: Array<[key: string, attachment?: string]>, enabled = true): Promise<Record<string, string>> {
  const base = `/api/v1/namespaces/${SHOP}/flags`;
  ok(await api.post(base, { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled }), `flag ${key}`);
  const ids: Record<string, string> = {};
  for (const [variant, attachment] of variants) {
    ids[variant] = ok<{ id: string }>(await api.post(`${base}/${key}/variants`, { key: variant, name: variant, ...(attachment === undefined ? {} : { attachment }) }), `variant ${variant}`).id;
  }
  return ids;
}

async function ruleOf(api: JsonClient, flag: string, segmentKey: string, distributions: Array<[variantId: string, rollout: number]>): Promise<void> {
  const base = `/api/v1/namespaces/${SHOP}/flags/${flag}/rules`;
  const rule = ok<{ id: string }>(await api.post(base, { segmentKey, rank: 1 }), `rule of ${flag}`).id;
  for (const [variantId, rollout] of distributions) ok(await api.post(`${base}/${rule}/distributions`, { variantId, rollout }), `distribution of ${flag}`);
}

export async function seedShop(api: JsonClient): Promise<void> {
  const ns = `/api/v1/namespaces/${SHOP}`;
  ok(await api.post('/api/v1/namespaces', { key: SHOP, name: 'Shop' }));
  ok(await api.post(`${ns}/segments`, { key: 'beta-testers', name: 'Beta testers', matchType: 'ALL_MATCH_TYPE' }));
  ok(await api.post(`${ns}/segments/beta-testers/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }));
  ok(await api.post(`${ns}/segments`, { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' }));

  const checkout = await variantFlag(api, 'checkout-button', [['blue', '{"hex":"#0000ff"}'], ['green', '{"hex":"#00ff00"}'], ['red', '{"hex":"#ff0000"}']]);
  await ruleOf(api, 'checkout-button', 'beta-testers', [[checkout['blue']!, 50], [checkout['green']!, 50]]);
  ok(await api.put(`${ns}/flags/checkout-button`, { name: 'checkout-button', enabled: true, defaultVariantId: checkout['red'] }));

  const banner = await variantFlag(api, 'banner', [['spring', '{"title":"Spring sale","discount":20}']]);
  await ruleOf(api, 'banner', 'everyone', [[banner['spring']!, 100]]);

  await variantFlag(api, 'legacy-nav', [['old']], false);
  await variantFlag(api, 'empty', []);

  ok(await api.post(`${ns}/flags`, { key: 'new-search', name: 'New search', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  ok(await api.post(`${ns}/flags/new-search/rollouts`, { rank: 1, segment: { segmentKey: 'beta-testers', value: true } }));
  ok(await api.post(`${ns}/flags/new-search/rollouts`, { rank: 2, threshold: { percentage: 30, value: true } }));
  ok(await api.post(`${ns}/flags`, { key: 'dark-mode', name: 'Dark mode', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));

  const searchBanner = await variantFlag(api, 'search-banner', [['sunrise']]);
  await ruleOf(api, 'search-banner', 'everyone', [[searchBanner['sunrise']!, 100]]);
  ok(await api.put(`${ns}/flags/search-banner`, { name: 'search-banner', enabled: true, prerequisites: [{ flagKey: 'new-search', enabled: true }] }));
}
