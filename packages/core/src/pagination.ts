/**
 * Page tokens of the management lists. COMPAT(flipt): the SQL store's token is standard base64
 * (with padding) of `{"key":"<last item key or id>","offset":N}`; only `offset` is read back.
 */
import { invalid } from './errors.js';
import { isFields } from './decode/fields.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The token that resumes a list after the item `key` at `offset`. */
export function encodePageToken(key: string, offset: number): string {
  return Buffer.from(JSON.stringify({ key, offset }), 'utf8').toString('base64');
}

/** The offset a page token resumes at; a token that is not one of ours is a 400. */
export function decodePageToken(token: string): number {
  return decodePageCursor(token).offset;
}

/** The item a page token names (the last one returned, absent when it names none) and the offset after it; a token that is not one of ours is a 400. */
export function decodePageCursor(token: string): { key: string | undefined; offset: number } {
  const bad = () => invalid(`pageToken is not valid: ${JSON.stringify(token)}`);
  if (token === '' || !BASE64.test(token)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!isFields(parsed)) throw bad();
  const { key, offset } = parsed;
  if (key !== undefined && key !== null && typeof key !== 'string') throw bad();
  const named = typeof key === 'string' ? key : undefined;
  if (offset === undefined || offset === null) return { key: named, offset: 0 };
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw bad();
  return { key: named, offset };
}
