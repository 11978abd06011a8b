/** Keys and enum names as a document spells them. */
import type { EnumSpec } from '../enums.js';
import { MAX_KEY_LENGTH } from '../validation/common.validation.js';
import { has, readText, type DocumentObject, type Place } from './document-fields.js';

const KEY = /^[-_,A-Za-z0-9]+$/;

/** A namespace, flag or segment key: present, at most 255 characters, `^[-_,A-Za-z0-9]+$`. */
export function checkKey(key: string, at: Place): string {
  if (key === '') return at.fail('must not be empty');
  if (key.length > MAX_KEY_LENGTH) return at.fail(`must be at most ${MAX_KEY_LENGTH} characters`);
  if (!KEY.test(key)) return at.fail(`${JSON.stringify(key)} must match ^[-_,A-Za-z0-9]+$`);
  return key;
}

/**
 * An enum field by its name (`ANY_MATCH_TYPE`); `fallback` when absent, required when there is
 * none. Proto integers are not document spellings and are refused.
 */
export function readEnumName<N extends string>(obj: DocumentObject, name: string, spec: EnumSpec<N>, at: Place, fallback: N | undefined): N {
  if (!has(obj, name)) return fallback ?? at.field(name).fail(`must be one of ${spec.names.join(', ')}`);
  const text = readText(obj, name, at);
  const parsed = spec.parse(text);
  if (parsed === undefined) return at.field(name).fail(`${JSON.stringify(text)} is not one of ${spec.names.join(', ')}`);
  return parsed;
}
