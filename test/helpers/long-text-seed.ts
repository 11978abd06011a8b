/**
 * A namespace where every key is as long as the API takes (255 characters) and every name is 500
 * characters, on every kind of resource: flags (variant and boolean), variants, rules, rollouts,
 * prerequisites, a schedule, segments with constraints, a token, a change request, and evaluations
 * so the usage columns and the history have something to show.
 */
import type { JsonClient } from '@ensign/testkit';
import { ok } from './api.js';

/** The longest key the API accepts. */
const MAX_KEY = 255;

const WORDS = ['enable', 'new', 'checkout', 'flow', 'for', 'enterprise', 'customers', 'in', 'eu', 'region', '2026', 'q3', 'with', 'saved', 'payment', 'methods', 'and', 'express', 'shipping', 'options', 'across', 'every', 'storefront', 'market'];

/** A key of exactly `MAX_KEY` characters: `start`, then words joined by `separator`. */
function longKey(start: string, separator: string): string {
  let key = start;
  for (let i = 0; key.length < MAX_KEY; i++) key += `${separator}${WORDS[i % WORDS.length]}`;
  return `${key.slice(0, MAX_KEY - 1)}z`;
}

/** A name of exactly 500 characters: `start`, then a sentence about it, repeated. */
function longName(start: string): string {
  let name = start;
  while (name.length < 500) name += ' for enterprise customers in the EU region who pay with a saved card and ship express';
  return `${name.slice(0, 499)}.`;
}

/** The realistic snake_case key that already crowds a list at 1280 px. */
export const MEDIUM_FLAG = 'enable_new_checkout_flow_for_enterprise_customers_in_eu_region_2026_q3';

export const NS = longKey('storefront', '_');
export const FLAG = longKey('checkout', '_');
export const BOOLEAN_FLAG = longKey('express-shipping', '-');
export const SEGMENT = longKey('enterprise_customers', '_');
export const VARIANT = longKey('layout', '.');
export const PROPERTY = longKey('customer', '_');

export const NAMES = {
  namespace: longName('Storefront experiments'),
  flag: longName('Checkout flow'),
  booleanFlag: longName('Express shipping'),
  mediumFlag: 'Enterprise checkout in the EU',
  segment: longName('Enterprise customers'),
  variant: longName('Single-page layout'),
  token: longName('Storefront deployment pipeline'),
  changeRequest: longName('Rename the checkout flow'),
};

/** The description of everything that has one. */
const DESCRIPTION = longName('Shown while we measure the checkout');

export const KEYS = [NS, FLAG, MEDIUM_FLAG, BOOLEAN_FLAG, SEGMENT, VARIANT, PROPERTY];

/** Everything above, made through the API; resolves the change request's id. */
export async function seedLongText(api: JsonClient): Promise<{ changeRequest: string }> {
  const base = `/api/v1/namespaces/${NS}`;
  const post = async <T = { id: string }>(path: string, body: unknown, what: string): Promise<T> => ok<T>(await api.post(path, body), what);
  const description = DESCRIPTION;

  await post('/api/v1/namespaces', { key: NS, name: NAMES.namespace, description }, 'namespace');
  await post(`${base}/segments`, { key: SEGMENT, name: NAMES.segment, description, matchType: 'ALL_MATCH_TYPE' }, 'segment');
  await post(`${base}/segments/${SEGMENT}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: PROPERTY, operator: 'isoneof', value: JSON.stringify([VARIANT, MEDIUM_FLAG]), description }, 'list constraint');
  await post(`${base}/segments/${SEGMENT}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: PROPERTY, operator: 'neq', value: FLAG, description }, 'string constraint');

  await post(`${base}/flags`, { key: MEDIUM_FLAG, name: NAMES.mediumFlag, description: '', enabled: true, type: 'VARIANT_FLAG_TYPE' }, 'medium flag');
  await post(`${base}/flags/${MEDIUM_FLAG}/variants`, { key: VARIANT, name: NAMES.variant, description }, 'medium flag variant');

  await post(`${base}/flags`, { key: FLAG, name: NAMES.flag, description, enabled: true, type: 'VARIANT_FLAG_TYPE', prerequisites: [{ flagKey: MEDIUM_FLAG, variants: [VARIANT] }] }, 'flag');
  const long = await post(`${base}/flags/${FLAG}/variants`, { key: VARIANT, name: NAMES.variant, description, attachment: JSON.stringify({ [PROPERTY]: VARIANT }) }, 'long variant');
  const short = await post(`${base}/flags/${FLAG}/variants`, { key: 'classic', name: 'Classic', description: '' }, 'short variant');
  ok(await api.put(`${base}/flags/${FLAG}`, { name: NAMES.flag, description, enabled: true, defaultVariantId: long.id }), 'default variant');
  const rule = await post(`${base}/flags/${FLAG}/rules`, { segmentKey: SEGMENT, rank: 1 }, 'rule');
  for (const variant of [long, short]) await post(`${base}/flags/${FLAG}/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 50 }, 'distribution');
  await post(`${base}/flags/${FLAG}/schedules`, { at: '2031-01-20T15:00:00Z', enabled: false }, 'schedule');

  await post(`${base}/flags`, { key: BOOLEAN_FLAG, name: NAMES.booleanFlag, description, enabled: true, type: 'BOOLEAN_FLAG_TYPE' }, 'boolean flag');
  await post(`${base}/flags/${BOOLEAN_FLAG}/rollouts`, { rank: 1, description, segment: { segmentKey: SEGMENT, value: true }, validFrom: '2020-06-01T12:00:00Z', validUntil: '2031-02-01T17:30:00Z' }, 'segment rollout');
  await post(`${base}/flags/${BOOLEAN_FLAG}/rollouts`, { rank: 2, description, threshold: { percentage: 10, value: true, ramp: [{ at: '2031-01-15T14:00:00Z', percentage: 50 }] } }, 'threshold rollout');

  for (const flagKey of [FLAG, MEDIUM_FLAG]) await post('/evaluate/v1/variant', { namespaceKey: NS, flagKey, entityId: PROPERTY, context: { [PROPERTY]: VARIANT } }, 'evaluation');
  await post('/evaluate/v1/boolean', { namespaceKey: NS, flagKey: BOOLEAN_FLAG, entityId: PROPERTY, context: { [PROPERTY]: VARIANT } }, 'boolean evaluation');

  await post('/auth/v1/method/token', { name: NAMES.token, description }, 'token');

  ok(await api.put(`${base}/change-policy`, { requiredApprovals: 1 }), 'change policy');
  const request = await post(`${base}/change-requests`, { title: NAMES.changeRequest, description, changes: [{ method: 'PUT', path: `${base}/flags/${FLAG}`, body: { name: NAMES.mediumFlag, description, enabled: false } }] }, 'change request');
  await post(`${base}/change-requests/${request.id}/submit`, {}, 'submit');
  return { changeRequest: request.id };
}
