/**
 * Generic readers for loosely typed request objects (a JSON body, query parameters, path
 * parameters). They follow Flipt's legacy jsonpb decoding: a field may be spelled in
 * lowerCamelCase or snake_case, `null` means "not sent", unknown fields are ignored, and a value
 * of the wrong JSON type is a 400 that names the field.
 */
import type { EnumSpec } from '../enums.js';
import { invalidField } from '../errors.js';

/** A decoded JSON object as it arrived: any field may be missing, null or of the wrong type. */
export type Fields = Readonly<Record<string, unknown>>;

/** Path parameters of a route, named after the request fields they fill. */
export type PathParams = Readonly<Record<string, string | undefined>>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const own = (src: Fields, name: string): unknown => (Object.hasOwn(src, name) ? src[name] : undefined);

/** True for a plain JSON object (not an array, not null). */
export const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body with the path parameters laid over it: the URL wins over body fields. */
export function withPath(body: Fields, path: PathParams = {}): Fields {
  const merged: Record<string, unknown> = { ...body };
  for (const [name, value] of Object.entries(path)) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/** The value sent under `name` or its snake_case spelling; `null` counts as not sent. */
export function lookup(src: Fields, name: string): unknown {
  const camel = own(src, name);
  if (camel !== undefined && camel !== null) return camel;
  const snake = own(src, snakeCase(name));
  return snake === null ? undefined : snake;
}

/** A string field; `""` when not sent. `label` names the field in errors (defaults to `name`). */
export function readString(src: Fields, name: string, label = name): string {
  const value = lookup(src, name);
  if (value === undefined) return '';
  if (typeof value !== 'string') throw invalidField(label, 'must be a string');
  return value;
}

/** A boolean field; `false` when not sent. JSON booleans only, as jsonpb. */
export function readBoolean(src: Fields, name: string, label = name): boolean {
  const value = lookup(src, name);
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalidField(label, 'must be a boolean');
  return value;
}

const PARSE_BOOL: Readonly<Record<string, boolean>> = {
  '1': true, t: true, T: true, TRUE: true, true: true, True: true,
  '0': false, f: false, F: false, FALSE: false, false: false, False: false,
};

/**
 * A boolean sent as a query parameter; `false` when not sent.
 * COMPAT(flipt): grpc-gateway parses query booleans with Go's strconv.ParseBool spellings.
 */
export function readBooleanParam(src: Fields, name: string, label = name): boolean {
  const value = lookup(src, name);
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  const parsed = typeof value === 'string' ? PARSE_BOOL[value] : undefined;
  if (parsed === undefined) throw invalidField(label, 'must be a boolean');
  return parsed;
}

/** A 32-bit integer field sent as a JSON number or a numeric string; `0` when not sent. */
export function readInteger(src: Fields, name: string, label = name): number {
  const value = lookup(src, name);
  if (value === undefined) return 0;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && INTEGER_TEXT.test(value)) n = Number(value);
  else throw invalidField(label, 'must be an integer');
  if (!Number.isInteger(n)) throw invalidField(label, 'must be an integer');
  if (n < INT32_MIN || n > INT32_MAX) throw invalidField(label, 'must be a 32-bit integer');
  return n;
}

/** A finite number field sent as a JSON number or a numeric string; `0` when not sent. */
export function readNumber(src: Fields, name: string, label = name): number {
  const value = lookup(src, name);
  if (value === undefined) return 0;
  let n = Number.NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && NUMBER_TEXT.test(value)) n = Number(value);
  if (!Number.isFinite(n)) throw invalidField(label, 'must be a number');
  return n;
}

/** An array-of-strings field; `[]` when not sent. */
export function readStringArray(src: Fields, name: string, label = name): string[] {
  const value = lookup(src, name);
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw invalidField(label, 'must be an array of strings');
  }
  return [...(value as string[])];
}

/** A value as a refusal quotes it: a scalar as JSON, an array or object by its kind (it may be nested past what `JSON.stringify` can write). */
const quoted = (value: unknown): string => (Array.isArray(value) ? 'an array' : typeof value === 'object' && value !== null ? 'an object' : String(JSON.stringify(value)));

/** An enum field by name or proto integer; undefined when not sent so the caller picks the default. */
export function readEnum<N extends string>(src: Fields, name: string, spec: EnumSpec<N>, label = name): N | undefined {
  const value = lookup(src, name);
  if (value === undefined) return undefined;
  const parsed = spec.parse(value);
  if (parsed === undefined) throw invalidField(label, `unknown value ${quoted(value)}`);
  return parsed;
}

/**
 * How deep a request's JSON may nest. What it carries is stored and answered as JSON text, which
 * `JSON.stringify` cannot write past a few thousand levels (Flipt's protojson refuses 10,000).
 */
export const MAX_OBJECT_DEPTH = 1000;

/** How deeply `value` nests, counted without recursion (it may nest too deep to recurse), up to `limit` + 1. */
export function nestingDepth(value: unknown, limit = MAX_OBJECT_DEPTH): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** A free-form JSON object field (Flipt's `google.protobuf.Struct`); undefined when not sent. */
export function readObject(src: Fields, name: string, label = name): Record<string, unknown> | undefined {
  const value = lookup(src, name);
  if (value === undefined) return undefined;
  if (!isFields(value)) throw invalidField(label, 'must be a JSON object');
  if (nestingDepth(value) > MAX_OBJECT_DEPTH) throw invalidField(label, `must not nest deeper than ${MAX_OBJECT_DEPTH} levels`);
  return { ...value };
}

/** A nested message field, to be read with the same readers; undefined when not sent. */
export function readMessage(src: Fields, name: string, label = name): Fields | undefined {
  const value = lookup(src, name);
  if (value === undefined) return undefined;
  if (!isFields(value)) throw invalidField(label, 'must be an object');
  return value;
}
