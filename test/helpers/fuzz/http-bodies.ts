/**
 * Request bodies: JSON of any shape, and bodies no route can accept (broken JSON, JSON that is not
 * an object, too large, a content encoding that does not decode).
 */
import { gzipSync } from 'node:zlib';
import { deepJson, FIELDS, jsonObject, jsonValue } from './json-values.js';
import type { FuzzRandom } from './random.js';

export interface FuzzBody {
  bytes: Buffer;
  /** `Content-Encoding` to send with it, when any. */
  encoding?: string;
}

const NOT_OBJECTS: readonly string[] = ['[]', '[1,2]', '1', '-0', '"text"', 'true', 'false', '[{}]', '[null]', '"{}"'];

/** JSON that does not parse: cut, spliced or not JSON at all. */
function brokenJson(rng: FuzzRandom, known: readonly string[]): string {
  const text = JSON.stringify(jsonObject(rng, known));
  return rng.weighted<() => string>([
    [3, () => text.slice(0, 1 + rng.int(text.length - 1))],
    [2, () => `${text}${rng.pick(['}', ',', ']', 'x', '{"a":1}', ' garbage'])}`],
    [2, () => rng.pick(['{', '{"key":}', "{'key':'x'}", '{key: 1}', '{"a":NaN}', '{"a":undefined}', '{,}', '{"a" 1}', '\u0000', 'nul', '{"a":1,}', '{"a":"\\u12"}', '{"a":01}'])],
    [1, () => '{'.repeat(rng.between(1, 100_000))],
  ])();
}

/** The import route reads YAML, which takes much of what is broken JSON (`{"key":}` is `{key: null}`). */
export const readsYaml = (path: string): boolean => path.endsWith('/import');

/** A body the route must refuse whatever it is: the JSON (not for a YAML route) or its transport is broken. */
export function refusedBody(rng: FuzzRandom, known: readonly string[], limitBytes: number, yaml = false): FuzzBody {
  return rng.weighted<() => FuzzBody>([
    [yaml ? 0 : 6, () => ({ bytes: Buffer.from(brokenJson(rng, known)) })],
    [4, () => ({ bytes: Buffer.from(rng.pick(NOT_OBJECTS)) })],
    [2, () => ({ bytes: rng.bytes(rng.between(1, 64)), encoding: rng.pick(['gzip', 'deflate']) })],
    [1, () => ({ bytes: Buffer.from(JSON.stringify(jsonObject(rng, known))), encoding: rng.pick(['br', 'compress', 'x-unknown', 'gzip, gzip']) })],
    [0.3, () => ({ bytes: Buffer.from(JSON.stringify({ key: 'k', name: 'x'.repeat(limitBytes + rng.int(limitBytes)) })) })],
  ])();
}

/** Any body: mostly JSON objects of the API's fields, now and then a refused one or none. */
export function anyBody(rng: FuzzRandom, known: readonly string[], limitBytes: number): FuzzBody | undefined {
  return rng.weighted<() => FuzzBody | undefined>([
    [10, () => ({ bytes: Buffer.from(JSON.stringify(jsonObject(rng, known))) })],
    [1, () => ({ bytes: gzipSync(JSON.stringify(jsonObject(rng, known))), encoding: 'gzip' })],
    [1, () => ({ bytes: Buffer.from(JSON.stringify(jsonValue(rng, known))) })],
    [0.5, () => ({ bytes: Buffer.from(deepJson(rng.weighted([[3, rng.between(10, 5_000)], [1, rng.between(5_000, 200_000)]]), rng.pick(FIELDS), rng.chance(0.5))) })],
    [2, () => refusedBody(rng, known, limitBytes)],
    [1, () => undefined],
  ])();
}
