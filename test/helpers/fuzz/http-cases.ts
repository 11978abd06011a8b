/**
 * One HTTP fuzz case from a route of the tables: its path filled with odd parameters, a query, any
 * headers, and a body. An invalid case names nothing that exists and, when its method may write,
 * sends a body no route accepts, so it must change nothing.
 */
import type { HttpRoute } from './http-routes.js';
import { anyBody, type FuzzBody, readsYaml, refusedBody } from './http-bodies.js';
import type { FuzzRandom } from './random.js';
import { fuzzString } from './strings.js';

export interface HttpCase {
  method: string;
  /** Path and query, as written on the request line. */
  target: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The route it was made from. */
  route: HttpRoute;
}

export interface HttpCaseContext {
  /** A token that may do everything. */
  token: string;
  /** Keys and ids that exist (used only by cases that may be valid). */
  known: readonly string[];
  bodyLimitBytes: number;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const OTHER_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'FOO'];
const QUERY_NAMES: readonly string[] = ['limit', 'offset', 'pageToken', 'reference', 'namespaceKey', 'from', 'to', 'type', 'format', 'key', 'since', 'until', 'status', 'namespace', 'flagKey', 'resource', 'action', 'q'];

/** Only what Node lets a header carry: tab, printable ASCII and Latin-1 (no CR/LF). */
const headerSafe = (value: string): string => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?').slice(0, 8_000);

/**
 * `encodeURIComponent` (or `encodeURI`), except that a lone surrogate is written as its WTF-8
 * bytes: percent escapes that are not UTF-8.
 */
function escape(value: string, encode: (text: string) => string = encodeURIComponent): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) out += `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`.toUpperCase();
    else out += encode(char);
  }
  return out;
}

/** A parameter as it may appear in a path: escaped, half escaped or raw (Node refuses only controls and spaces on the request line). */
function pathValue(rng: FuzzRandom, value: string): string {
  return rng.weighted<() => string>([
    [6, () => escape(value)],
    [2, () => escape(value, encodeURI).replace(/[^\x21-\xff]/g, '_')],
    [1, () => rng.pick(['%', '%ZZ', '%00', '%2F', '..', '.', '%2e%2e', '%u0041', '%C0%AF', '%ff%fe'])],
  ])();
}

/**
 * A name for an invalid case: keys hold only `-_,` letters and digits, so one with any other
 * character names nothing that exists (a valid case may have created any key of the string pool).
 */
const absent = (value: string): string => (/^[-_,A-Za-z0-9]*$/.test(value) ? `${value}~` : value);

/** A string for a case: of the known names now and then when it may be valid, never one when not. */
const nameFor = (rng: FuzzRandom, known: readonly string[], valid: boolean, knownShare: number): string =>
  valid ? (known.length > 0 && rng.chance(knownShare) ? rng.pick(known) : fuzzString(rng)) : absent(fuzzString(rng));

function fillPath(rng: FuzzRandom, pattern: string, known: readonly string[], valid: boolean): string {
  let path = pattern.replace(/:(\w+)/g, () => pathValue(rng, nameFor(rng, known, valid, 0.7)));
  if (rng.chance(0.05)) path += rng.pick(['/', '//', '/x', '/..', '/%2e', '/.']);
  if (rng.chance(0.03)) path = path.replace('/', '//');
  return path;
}

function query(rng: FuzzRandom, known: readonly string[], valid: boolean): string {
  if (rng.chance(0.5)) return '';
  const parts = Array.from({ length: rng.between(1, 5) }, () => {
    const name = rng.chance(0.9) ? rng.pick(QUERY_NAMES) : fuzzString(rng);
    const value = nameFor(rng, known, valid, 0.3);
    return rng.chance(0.1) ? pathValue(rng, `${name}=${value}`) : `${escape(name)}=${escape(value)}`;
  });
  return `?${parts.join('&')}`;
}

function authorization(rng: FuzzRandom, token: string): string | undefined {
  return rng.weighted<() => string | undefined>([
    [16, () => `Bearer ${token}`],
    [1, () => undefined],
    [1, () => rng.pick(['Bearer', 'Bearer ', `bearer ${token}`, `Bearer ${token}x`, `Basic ${Buffer.from('a:b').toString('base64')}`, 'JWT a.b.c', 'Bearer eyJhbGciOiJub25lIn0.e30.', `Bearer ${token} ${token}`])],
    [1, () => `Bearer ${headerSafe(fuzzString(rng))}`],
  ])();
}

function headers(rng: FuzzRandom, context: HttpCaseContext, body: FuzzBody | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const auth = authorization(rng, context.token);
  if (auth !== undefined) out.authorization = auth;
  const type = rng.weighted<string | undefined>([
    [8, 'application/json'], [1, 'text/plain'], [1, 'application/x-www-form-urlencoded'], [1, 'application/json; charset=utf-16'],
    [1, 'application/json; charset=latin1'], [1, 'application/json; charset=nope'], [1, 'multipart/form-data; boundary=x'], [1, undefined],
  ]);
  if (type !== undefined) out['content-type'] = type;
  const accept = rng.weighted<string | undefined>([[6, undefined], [3, 'application/json'], [1, 'application/json+pretty'], [1, 'text/event-stream'], [1, 'application/x-ndjson'], [1, '*/*;q=0.1, x/y']]);
  if (accept !== undefined) out.accept = accept;
  if (body?.encoding !== undefined) out['content-encoding'] = body.encoding;
  const extras: ReadonlyArray<readonly [string, () => string]> = [
    ['x-flipt-accept-server-version', () => rng.pick(['v1.47.0', 'v2', 'x', ''])],
    ['x-forwarded-prefix', () => rng.pick(['/flipt', '//', '/../x', ''])],
    ['cookie', () => rng.pick([`flipt_client_token=${context.token}`, 'flipt_client_token=x', 'flipt_csrf_token=x', 'a=b; c'])],
    ['x-csrf-token', () => 'x'],
    ['accept-encoding', () => rng.pick(['gzip', 'br', 'identity;q=0', '*'])],
    ['x-request-id', () => fuzzString(rng)],
    [`x-${rng.int(1000)}`, () => fuzzString(rng)],
  ];
  for (const [name, value] of extras) if (rng.chance(0.08)) out[name] = headerSafe(value());
  return out;
}

/** A case over `route`; `valid: false` makes one that may name nothing that exists and writes nothing. */
export function httpCase(rng: FuzzRandom, route: HttpRoute, context: HttpCaseContext, valid: boolean): HttpCase {
  const method = rng.chance(0.88) ? route.method : rng.pick(OTHER_METHODS);
  const known = valid ? context.known : [];
  const target = fillPath(rng, route.path, known, valid) + query(rng, known, valid);
  const writes = !READS.has(method);
  let body: FuzzBody | undefined;
  if (!valid && writes && method !== 'DELETE') body = refusedBody(rng, known, context.bodyLimitBytes, readsYaml(route.path));
  else if (writes || rng.chance(0.05)) body = anyBody(rng, known, context.bodyLimitBytes);
  return { method, target, headers: headers(rng, context, body), body: body?.bytes, route };
}
