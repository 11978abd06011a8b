/**
 * Strings that break parsers and validators: empty, long, control characters, lone surrogates,
 * other scripts, percent and path tricks, number-like and SQL-like text.
 */
import { FuzzRandom } from './random.js';

/** Past this length a quoted input must be cut in any message that quotes it. */
export const LONG_INPUT = 300;

const ODD: readonly string[] = [
  '', ' ', '\t', '\n', '\0', '\u0000key', 'null', 'undefined', 'true', '0', '-1', '1e309', 'NaN', '9007199254740993',
  '..', '../..', '%2e%2e', '%00', '%', '%ZZ', '%c0%af', '/', '//', '\\', '?', '#', '&', '=', '+', ';', ',',
  "'", '"', "' OR '1'='1", '"; DROP TABLE flags; --', '${jndi:x}', '{{x}}', '<script>', '__proto__', 'constructor', 'prototype',
  '\ud800', '\udfff', '\ufeff', '\u202e', '\u00e9', 'e\u0301', '\u{1f600}', '日本語', 'Ω≈ç√', '\r\nX-Injected: 1',
  'a'.repeat(64), 'k-e_y,1', 'KEY', 'key with space', 'key.dot', 'key/slash',
];

const ALPHABETS: readonly string[] = [
  'abcdefghijklmnopqrstuvwxyz0123456789-_',
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_,.~!*()\' ',
  '\0\u0001\u0007\b\t\n\r\u001b\u007f\u0085\u2028\u2029',
  'éßøΩЖ中文🎉\ud800\udbff\udc00',
];

/**
 * Random strings are drawn from this many per alphabet, so cases that create what they name (a
 * flag, a segment) keep re-creating and updating a bounded set: stored state stays bounded, and
 * memory that keeps growing is a leak.
 */
const STRINGS_PER_ALPHABET = 256;

/** A string of one alphabet, up to `maxLength` characters, of the bounded set. */
export function stringOf(rng: FuzzRandom, maxLength: number): string {
  const alphabet = Array.from(rng.pick(ALPHABETS));
  const own = new FuzzRandom(rng.int(STRINGS_PER_ALPHABET));
  let out = '';
  for (let length = own.size(maxLength); out.length < length; ) out += own.pick(alphabet);
  return out;
}

/** A long string, easy to find again in a message (its start is not a common word). */
export function longString(rng: FuzzRandom): string {
  const length = rng.weighted([[6, rng.between(LONG_INPUT, 2_000)], [3, rng.between(2_000, 20_000)], [1, rng.between(20_000, 200_000)]]);
  const unit = `long${rng.int(STRINGS_PER_ALPHABET)}-`;
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Any string: odd, random, or long. */
export function fuzzString(rng: FuzzRandom): string {
  return rng.weighted<() => string>([
    [4, () => rng.pick(ODD)],
    [4, () => stringOf(rng, 40)],
    [1, () => longString(rng)],
  ])();
}
