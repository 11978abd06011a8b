/** Authentication of the evaluator's routes against a published digest set, JWTs, exclusions and namespace-scoped tokens. */
import test from 'ava';
import { type Authentication, csrfTokenFor, digestOf, type DigestEntry, type DigestSet } from '@ensign/auth';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import type { EvaluatorAuthOptions } from '../src/http/request-credentials.js';
import { assertError, FIXED_NOW, startServer } from './helpers/server.js';

const UNAUTHENTICATED = 'request was not authenticated';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A mutable digest set, as the bus watcher keeps it. */
function digests(entries: Record<string, DigestEntry>): { set: Map<string, DigestEntry>; get: () => DigestSet } {
  const set = new Map(Object.entries(entries).map(([token, entry]) => [digestOf(token), entry]));
  return { set, get: () => set };
}

const exclude = { management: false, evaluation: false, ofrep: false };

function options(get: () => DigestSet, extra: Partial<EvaluatorAuthOptions> = {}): EvaluatorAuthOptions {
  return { required: true, digests: get, exclude, ...extra };
}

const variant = { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } };

test('every route refuses a request without a valid token with 401 and the error body', async (t) => {
  const { get } = digests({ good: { method: 'METHOD_TOKEN' }, old: { method: 'METHOD_TOKEN', expiresAtMs: FIXED_NOW - 1 } });
  const api = await startServer(t, { source: readySource(), auth: options(get) });
  const calls: Array<[string, string, unknown]> = [
    ['POST', '/evaluate/v1/variant', variant],
    ['POST', '/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'u1' }],
    ['POST', '/evaluate/v1/batch', { requests: [variant] }],
    ['POST', '/evaluate/v1/namespaces/default/variant', variant],
    ['GET', '/internal/v1/evaluation/snapshot/namespace/default', undefined],
    ['POST', '/api/v1/evaluate', variant],
    ['POST', '/api/v1/namespaces/default/batch-evaluate', { requests: [variant] }],
  ];
  const headerSets: Array<Record<string, string>> = [{}, { Authorization: 'Basic abc' }, { Authorization: 'bearer good' }, bearer('unknown'), bearer('old')];
  for (const [method, path, body] of calls) {
    for (const headers of headerSets) {
      const reply = await api.request(method, path, body, headers);
      assertError(t, reply, 401, 16, UNAUTHENTICATED);
      t.is(reply.headers.get('www-authenticate'), UNAUTHENTICATED);
    }
    t.is((await api.request(method, path, body, bearer('good'))).status, 200, `${method} ${path}`);
  }
});

test('OFREP refuses with its own error body', async (t) => {
  const { get } = digests({ good: { method: 'METHOD_TOKEN' } });
  const api = await startServer(t, { source: readySource(), auth: options(get) });
  const reply = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } });
  t.is(reply.status, 401);
  t.deepEqual(reply.body, { errorCode: 'GENERAL', errorDetails: UNAUTHENTICATED });
  t.is((await api.get('/ofrep/v1/configuration')).status, 401);
  t.is((await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } }, bearer('good'))).status, 200);
});

test('a token removed from the set, or expiring, is refused on the next request', async (t) => {
  const { set, get } = digests({ good: { method: 'METHOD_TOKEN' } });
  let now = FIXED_NOW;
  const api = await startServer(t, { source: readySource(), auth: options(get), now: () => now });
  t.is((await api.post('/evaluate/v1/variant', variant, bearer('good'))).status, 200);
  set.delete(digestOf('good'));
  assertError(t, await api.post('/evaluate/v1/variant', variant, bearer('good')), 401, 16, UNAUTHENTICATED);
  set.set(digestOf('brief'), { method: 'METHOD_TOKEN', expiresAtMs: FIXED_NOW + 10 });
  t.is((await api.post('/evaluate/v1/variant', variant, bearer('brief'))).status, 200);
  now = FIXED_NOW + 11;
  assertError(t, await api.post('/evaluate/v1/variant', variant, bearer('brief')), 401, 16, UNAUTHENTICATED);
});

test('a namespaced token evaluates only in its namespace, batches included; OFREP refuses it', async (t) => {
  const { get } = digests({ scoped: { method: 'METHOD_TOKEN', namespace: 'other' }, home: { method: 'METHOD_TOKEN', namespace: 'default' } });
  const api = await startServer(t, { source: readySource(), auth: options(get) });
  const h = bearer('scoped');
  const ok = (reply: { status: number; text: string }) => t.is(reply.status, 200, reply.text);
  const refused = (reply: Parameters<typeof assertError>[1]) => assertError(t, reply, 401, 16, UNAUTHENTICATED);

  ok(await api.post('/evaluate/v1/variant', { ...variant, namespaceKey: 'other' }, h));
  ok(await api.post('/evaluate/v1/variant', { ...variant, namespace_key: 'other' }, h));
  ok(await api.post('/evaluate/v1/namespaces/other/variant', { ...variant, namespaceKey: 'default' }, h));
  ok(await api.post('/evaluate/v1/batch', { requests: [{ ...variant, namespaceKey: 'other' }, { ...variant, namespaceKey: 'other' }] }, h));
  ok(await api.get('/internal/v1/evaluation/snapshot/namespace/other', h));
  ok(await api.post('/api/v1/namespaces/other/evaluate', variant, h));
  ok(await api.post('/api/v1/batch-evaluate', { namespaceKey: 'other', requests: [variant] }, h));

  refused(await api.post('/evaluate/v1/variant', variant, h));
  refused(await api.post('/evaluate/v1/variant', { ...variant, namespaceKey: 'default' }, h));
  refused(await api.post('/evaluate/v1/variant', { ...variant, namespaceKey: 42 }, h));
  refused(await api.post('/evaluate/v1/namespaces/default/variant', { ...variant, namespaceKey: 'other' }, h));
  refused(await api.post('/evaluate/v1/batch', { requests: [{ ...variant, namespaceKey: 'other' }, { ...variant, namespaceKey: 'default' }] }, h));
  refused(await api.post('/evaluate/v1/batch', { requests: [{ ...variant, namespaceKey: 'other' }, variant] }, h));
  refused(await api.get('/internal/v1/evaluation/snapshot/namespace/default', h));
  refused(await api.post('/api/v1/evaluate', variant, h));
  refused(await api.post('/api/v1/batch-evaluate', { namespaceKey: 'other', requests: [{ ...variant, namespaceKey: 'default' }] }, h));
  const ofrep = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } }, { ...h, 'X-Flipt-Namespace': 'other' });
  t.is(ofrep.status, 401);
  t.deepEqual(ofrep.body, { errorCode: 'GENERAL', errorDetails: UNAUTHENTICATED });

  ok(await api.post('/evaluate/v1/variant', variant, bearer('home')));
  ok(await api.post('/evaluate/v1/batch', { requests: [variant, { ...variant, namespaceKey: 'default' }] }, bearer('home')));
});

test('exclude.* opens one surface and leaves the others guarded', async (t) => {
  const { get } = digests({});
  const evaluation = await startServer(t, { source: readySource(), auth: options(get, { exclude: { ...exclude, evaluation: true } }) });
  t.is((await evaluation.post('/evaluate/v1/variant', variant)).status, 200);
  t.is((await evaluation.get('/internal/v1/evaluation/snapshot/namespace/default')).status, 200);
  t.is((await evaluation.post('/api/v1/evaluate', variant)).status, 401, 'legacy evaluate belongs to management');
  t.is((await evaluation.get('/ofrep/v1/configuration')).status, 401);

  const management = await startServer(t, { source: readySource(), auth: options(get, { exclude: { ...exclude, management: true } }) });
  t.is((await management.post('/api/v1/evaluate', variant)).status, 200);
  t.is((await management.post('/evaluate/v1/variant', variant)).status, 401);

  const ofrep = await startServer(t, { source: readySource(), auth: options(get, { exclude: { ...exclude, ofrep: true } }) });
  t.is((await ofrep.get('/ofrep/v1/configuration')).status, 200);
  t.is((await ofrep.post('/evaluate/v1/variant', variant)).status, 401);
});

test('with authentication not required, every request is served whatever it presents', async (t) => {
  const { get } = digests({});
  const api = await startServer(t, { source: readySource(), auth: options(get, { required: false }) });
  t.is((await api.post('/evaluate/v1/variant', variant)).status, 200);
  t.is((await api.post('/evaluate/v1/variant', variant, bearer('unknown'))).status, 200);
});

test('JWTs are verified asynchronously; a bad one is 401, and none are accepted without a verifier', async (t) => {
  const { get } = digests({});
  const authentication: Authentication = { method: 'METHOD_JWT', createdAt: '', updatedAt: '', metadata: {} };
  const jwt = { verify: async (value: string) => (value === 'valid.jwt.value' ? authentication : Promise.reject(new Error('bad signature'))) };
  const api = await startServer(t, { source: readySource(), auth: options(get, { jwt }) });
  t.is((await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT valid.jwt.value' })).status, 200);
  assertError(t, await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT forged.jwt.value' }), 401, 16, UNAUTHENTICATED);
  const noJwt = await startServer(t, { source: readySource(), auth: options(get) });
  assertError(t, await noJwt.post('/evaluate/v1/variant', variant, { Authorization: 'JWT valid.jwt.value' }), 401, 16, UNAUTHENTICATED);
});

test('a JWT is verified once and then trusted until it expires or for a minute, whichever comes first', async (t) => {
  const { get } = digests({});
  let now = FIXED_NOW;
  const verified: string[] = [];
  const expiring = (at: number): Authentication => ({ method: 'METHOD_JWT', createdAt: '', updatedAt: '', metadata: {}, expiresAt: new Date(at).toISOString() });
  const jwt = {
    verify: async (value: string) => {
      verified.push(value);
      if (value === 'long.lived.jwt') return expiring(FIXED_NOW + 3_600_000);
      // A real verifier refuses a token past its `exp`.
      if (value === 'short.lived.jwt' && now < FIXED_NOW + 5_000) return expiring(FIXED_NOW + 5_000);
      throw new Error('bad signature or expired');
    },
  };
  const api = await startServer(t, { source: readySource(), auth: options(get, { jwt }), now: () => now });
  for (let i = 0; i < 3; i++) t.is((await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT long.lived.jwt' })).status, 200);
  t.is((await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT short.lived.jwt' })).status, 200);
  for (let i = 0; i < 2; i++) assertError(t, await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT forged.jwt.value' }), 401, 16, UNAUTHENTICATED);
  t.deepEqual(verified, ['long.lived.jwt', 'short.lived.jwt', 'forged.jwt.value', 'forged.jwt.value'], 'verified once each; a bad one every time');

  now = FIXED_NOW + 5_000;
  verified.length = 0;
  assertError(t, await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT short.lived.jwt' }), 401, 16, UNAUTHENTICATED);
  t.is((await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT long.lived.jwt' })).status, 200);
  t.deepEqual(verified, ['short.lived.jwt'], 'an expired token is checked again (and refused); a live one is still trusted');

  now = FIXED_NOW + 60_000;
  t.is((await api.post('/evaluate/v1/variant', variant, { Authorization: 'JWT long.lived.jwt' })).status, 200);
  t.deepEqual(verified, ['short.lived.jwt', 'long.lived.jwt'], 'after a minute its signature is checked again');
});

test('a browser session cookie authenticates; its POSTs need the session\'s CSRF token', async (t) => {
  const { get } = digests({ session: { method: 'METHOD_OIDC' } });
  const api = await startServer(t, { source: readySource(), auth: options(get, { csrfKey: 'k' }) });
  const cookie = { Cookie: 'svc_client_token=session' };
  t.is((await api.get('/internal/v1/evaluation/snapshot/namespace/default', cookie)).status, 200, 'reads need no CSRF token');
  assertError(t, await api.post('/evaluate/v1/variant', variant, cookie), 403, 7, 'missing or invalid CSRF token');
  assertError(t, await api.post('/evaluate/v1/variant', variant, { ...cookie, 'X-CSRF-Token': csrfTokenFor('session', 'other') }), 403, 7, 'missing or invalid CSRF token');
  t.is((await api.post('/evaluate/v1/variant', variant, { ...cookie, 'X-CSRF-Token': csrfTokenFor('session', 'k') })).status, 200);
  t.is((await api.post('/evaluate/v1/variant', variant, { Cookie: 'flipt_client_token=session', 'X-CSRF-Token': csrfTokenFor('session', 'k') })).status, 200);
});

test('requests the evaluator does not serve are handed on unchecked', async (t) => {
  const { get } = digests({});
  const api = await startServer(t, { source: readySource(), auth: options(get) });
  const reply = await api.get('/api/v1/namespaces');
  t.is(reply.status, 418);
});
