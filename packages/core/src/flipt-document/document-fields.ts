/**
 * Typed reads of a parsed YAML/JSON document, each failing with the path of the field. As Flipt's
 * Go decoders do: unknown fields are ignored, `null` is "absent", and a YAML scalar read into a
 * text field is taken as its text (`value: 42` is the constraint value "42").
 */
import type { AppError } from '../errors.js';
import { documentError, type DocumentLocation } from './document-error.js';

export type DocumentObject = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is DocumentObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's place in one document: reads its children and fails naming its path. */
export class Place {
  constructor(
    readonly at: DocumentLocation,
    readonly path: string,
  ) {}

  field(name: string): Place {
    return new Place(this.at, this.path === '' ? name : `${this.path}.${name}`);
  }

  item(index: number): Place {
    return new Place(this.at, `${this.path}[${index}]`);
  }

  error(reason: string): AppError {
    return documentError(this.at, this.path, reason);
  }

  fail(reason: string): never {
    throw this.error(reason);
  }
}

const valueOf = (obj: DocumentObject, name: string): unknown => (Object.hasOwn(obj, name) ? obj[name] : undefined);

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** Whether the field is there (and not null). */
export const has = (obj: DocumentObject, name: string): boolean => present(valueOf(obj, name));

/** A text field; `""` when absent. */
export function readText(obj: DocumentObject, name: string, at: Place): string {
  const value = valueOf(obj, name);
  if (!present(value)) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return at.field(name).fail('must be a string');
}

/** A boolean field; `false` when absent. */
export function readFlag(obj: DocumentObject, name: string, at: Place): boolean {
  const value = valueOf(obj, name);
  if (!present(value)) return false;
  if (typeof value !== 'boolean') return at.field(name).fail('must be true or false');
  return value;
}

/** A number field; undefined when absent. */
export function readNumber(obj: DocumentObject, name: string, at: Place): number | undefined {
  const value = valueOf(obj, name);
  if (!present(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return at.field(name).fail('must be a number');
  return value;
}

/** A list field; `[]` when absent. */
export function readList(obj: DocumentObject, name: string, at: Place): unknown[] {
  const value = valueOf(obj, name);
  if (!present(value)) return [];
  if (!Array.isArray(value)) return at.field(name).fail('must be a list');
  return value;
}

/** A mapping field; undefined when absent. */
export function readObject(obj: DocumentObject, name: string, at: Place): DocumentObject | undefined {
  const value = valueOf(obj, name);
  if (!present(value)) return undefined;
  if (!isObject(value)) return at.field(name).fail('must be a mapping');
  return value;
}

/** The field's raw value, `null` read as absent. */
export function readAny(obj: DocumentObject, name: string): unknown {
  const value = valueOf(obj, name);
  return present(value) ? value : undefined;
}

/** Each item of a list as a mapping, with its place. */
export function eachObject(items: readonly unknown[], at: Place): Array<{ obj: DocumentObject; at: Place }> {
  return items.map((item, i) => {
    const place = at.item(i);
    if (!isObject(item)) return place.fail('must be a mapping');
    return { obj: item, at: place };
  });
}
