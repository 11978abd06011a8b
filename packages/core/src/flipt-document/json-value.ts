/** Checks on the free-form values of a document: variant attachments and flag metadata. */
import { isObject } from './document-fields.js';

/**
 * Whether `value` survives JSON as it is: finite numbers, strings, booleans, null, plain arrays
 * and mappings of those (YAML also has `.nan`, `.inf` and other things JSON has not).
 */
export function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every(isJsonValue);
  return false;
}

/** A copy with every mapping's keys in code-unit order, as Go writes a decoded map (`encoding/json`, yaml). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (!isObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeysDeep(value[key]);
  return sorted;
}
