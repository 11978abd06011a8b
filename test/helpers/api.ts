/** Helpers for black-box tests of the management API. */
import { randomBytes } from 'node:crypto';
import { type JsonClient, type JsonResponse, jsonClient } from '@ensign/testkit';
import type { ExecutionContext } from 'ava';

/** RFC 3339 in UTC, as protojson prints timestamps. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** A UUID-shaped identifier. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key no other test uses, so tests can share one server and run concurrently. */
export const uniqueKey = (prefix: string): string => `${prefix}-${randomBytes(5).toString('hex')}`;

/** The body of a successful response; any other status fails the test step with the response text. */
export function ok<T = any>(res: JsonResponse<T>, what = 'request'): T {
  if (res.status !== 200) throw new Error(`${what} failed: HTTP ${res.status} ${res.text}`);
  return res.body;
}

/** Asserts a Flipt error response: status, `{code, message, details: []}`, JSON content type. */
export function assertError(
  t: ExecutionContext<unknown>,
  res: JsonResponse,
  expected: { status: number; code: number; message: string | RegExp },
  note = '',
): void {
  const label = `${note}${note ? ': ' : ''}HTTP ${res.status} ${res.text}`;
  t.is(res.status, expected.status, label);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/, label);
  t.is(typeof res.body, 'object', label);
  const body = res.body as { code?: unknown; message?: unknown; details?: unknown };
  t.deepEqual(Object.keys(body).sort(), ['code', 'details', 'message'], label);
  t.is(body.code, expected.code, label);
  t.deepEqual(body.details, [], label);
  if (typeof expected.message === 'string') t.is(body.message, expected.message, label);
  else t.regex(String(body.message), expected.message, label);
}

/** 400 InvalidArgument with an exact message or one that matches. */
export const assertInvalid = (t: ExecutionContext<unknown>, res: JsonResponse, message: string | RegExp, note = ''): void =>
  assertError(t, res, { status: 400, code: 3, message }, note);

/** 404 NotFound with an exact message or one that matches. */
export const assertNotFound = (t: ExecutionContext<unknown>, res: JsonResponse, message: string | RegExp, note = ''): void =>
  assertError(t, res, { status: 404, code: 5, message }, note);

/** A message that names `field` as a word (`rank`, `segmentOperator`, `threshold.percentage`). */
export const naming = (field: string): RegExp => new RegExp(`(^|[^A-Za-z_])${field.replace(/\./g, '\\.')}([^A-Za-z_]|$)`);

/** Creates a namespace of its own for one test. */
export async function createNamespace(api: JsonClient, prefix = 'ns'): Promise<string> {
  const key = uniqueKey(prefix);
  ok(await api.post('/api/v1/namespaces', { key, name: key }), `create namespace ${key}`);
  return key;
}

/** Everything stored in a namespace, read through the API; used to prove a failed request changed nothing. */
export async function namespaceState(api: JsonClient, ns: string): Promise<unknown> {
  const base = `/api/v1/namespaces/${ns}`;
  const namespace = ok(await api.get(base), 'get namespace');
  const flags = ok(await api.get(`${base}/flags`), 'list flags') as { flags: Array<{ key: string }> };
  const segments = ok(await api.get(`${base}/segments`), 'list segments');
  const perFlag: Record<string, unknown> = {};
  for (const flag of flags.flags) {
    perFlag[flag.key] = {
      flag: ok(await api.get(`${base}/flags/${flag.key}`), 'get flag'),
      rules: ok(await api.get(`${base}/flags/${flag.key}/rules`), 'list rules'),
      rollouts: ok(await api.get(`${base}/flags/${flag.key}/rollouts`), 'list rollouts'),
    };
  }
  return { namespace, flags, segments, perFlag };
}

/** A client of `baseUrl` that sends `Authorization: Bearer <token>` on every request. */
export function bearerClient(baseUrl: string, token: string): JsonClient {
  const api = jsonClient(baseUrl);
  const auth = { Authorization: `Bearer ${token}` };
  return {
    baseUrl: api.baseUrl,
    request: (method, path, body, headers) => api.request(method, path, body, { ...auth, ...headers }),
    get: (path, headers) => api.get(path, { ...auth, ...headers }),
    post: (path, body, headers) => api.post(path, body, { ...auth, ...headers }),
    put: (path, body, headers) => api.put(path, body, { ...auth, ...headers }),
    del: (path, headers) => api.del(path, { ...auth, ...headers }),
  };
}
