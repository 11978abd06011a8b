/**
 * JSON bodies: objects named with the API's own field names (so validation is reached, not only
 * the parser), any value in any field, deep nesting and huge arrays.
 */
import type { FuzzRandom } from './random.js';
import { fuzzString } from './strings.js';

/** Field names of Flipt's and Ensign's requests. */
export const FIELDS: readonly string[] = [
  'key', 'name', 'description', 'namespaceKey', 'flagKey', 'segmentKey', 'segmentKeys', 'segmentOperator', 'entityId',
  'requestId', 'context', 'type', 'enabled', 'variantKey', 'variantId', 'ruleId', 'id', 'rank', 'ruleIds', 'rolloutIds',
  'threshold', 'percentage', 'value', 'segment', 'matchType', 'property', 'operator', 'constraints', 'distributions',
  'rollout', 'requests', 'metadata', 'attachment', 'expiresAt', 'pageToken', 'limit', 'offset', 'reference', 'defaultVariant',
  'defaultVariantId', 'flags', 'segments', 'rules', 'rollouts', 'version', 'namespace', 'at', 'until', 'steps', 'schedules',
  'window', 'start', 'end', 'from', 'to', 'title', 'calls', 'method', 'path', 'body', 'approve', 'comment', 'requiredApprovals',
  'batchId', 'counts', 'flag', 'reason', 'count', 'minute', 'clientToken', 'token', 'state', 'code', 'drop', 'format',
];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Anything for a field: a scalar of any type, a nested value, or one of the known identifiers. */
export function jsonValue(rng: FuzzRandom, known: readonly string[], depth = 0): Json {
  const nested = depth < 4;
  return rng.weighted<() => Json>([
    [4, () => fuzzString(rng)],
    [known.length === 0 ? 0 : 4, () => rng.pick(known)],
    [2, () => rng.pick([0, -1, 1, 0.5, 100, 101, 1e308, -1e308, 2 ** 53, 2 ** 31, 1e-7])],
    [2, () => rng.chance(0.5)],
    [1, () => null],
    [nested ? 2 : 0, () => jsonObject(rng, known, depth + 1)],
    [nested ? 2 : 0, () => Array.from({ length: rng.size(8) }, () => jsonValue(rng, known, depth + 1))],
    [depth === 0 ? 1 : 0, () => deepValue(rng.between(50, 1_000))],
    [depth === 0 ? 1 : 0, () => Array.from({ length: rng.between(1_000, 20_000) }, (_, i) => (rng.chance(0.5) ? i : `k${i}`))],
  ])();
}

/** An object of API field names (now and then an odd name) with any values. */
export function jsonObject(rng: FuzzRandom, known: readonly string[], depth = 0): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const count = rng.size(depth === 0 ? 10 : 4);
  for (let i = 0; i < count; i++) out[rng.chance(0.85) ? rng.pick(FIELDS) : fuzzString(rng)] = jsonValue(rng, known, depth);
  return out;
}

/** `{"a":[{"a":…}]}` nested `depth` times (deeper nesting is written as text: see `deepJson`). */
export function deepValue(depth: number): Json {
  let value: Json = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/**
 * `{"<field>": …}` nested `depth` levels deep as JSON text (deeper than a stringify could write):
 * objects and arrays in turn, or objects only (what a free-form field such as `metadata` takes).
 */
export function deepJson(depth: number, field: string, objectsOnly: boolean): string {
  const open = Array.from({ length: depth }, (_, i) => (i === 0 ? `{"${field}":` : objectsOnly || i % 2 === 0 ? '{"a":' : '[')).join('');
  const close = Array.from({ length: depth }, (_, i) => (objectsOnly || i % 2 === 0 ? '}' : ']')).reverse().join('');
  return `${open}1${close}`;
}
