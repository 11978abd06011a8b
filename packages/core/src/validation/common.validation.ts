/** Checks shared by every management request validator. */
import { emptyField, invalidField } from '../errors.js';
import { DEFAULT_NAMESPACE } from '../resources.js';

const KEY = /^[-_,A-Za-z0-9]+$/;

/** Longest key the schema stores on every engine. */
export const MAX_KEY_LENGTH = 255;

/** `invalid field <field>: must not be empty` when `value` is `""`. */
export function requireValue(value: string, field: string): void {
  if (value === '') throw emptyField(field);
}

/** A key that must be present and fit the schema's columns (variant keys have no pattern). */
export function requireShortValue(value: string, field: string): void {
  requireValue(value, field);
  if (value.length > MAX_KEY_LENGTH) throw invalidField(field, `must be at most ${MAX_KEY_LENGTH} characters`);
}

/** The key rules of namespace, flag and segment creation: present, short, then `^[-_,A-Za-z0-9]+$`. */
export function requireKey(key: string, field = 'key'): void {
  requireShortValue(key, field);
  if (!KEY.test(key)) throw invalidField(field, 'contains invalid characters');
}

/** COMPAT(flipt): an empty namespace key (legacy routes) means the `default` namespace. */
export const resolveNamespace = (namespaceKey: string): string => namespaceKey || DEFAULT_NAMESPACE;
