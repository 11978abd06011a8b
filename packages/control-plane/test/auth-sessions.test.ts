/** Browser sessions on the control plane: login routes, the session cookie, CSRF, logout; and the method listing. */
import test from 'ava';
import { Authenticator, csrfTokenFor, digestOf, type Identity, issueAuthentication, issueToken, type LoginMethod, type PendingLogin } from '@ensign/auth';
import { unauthenticated, unavailable } from '@ensign/core';
import { bearer, SESSION, startAuthHarness, UNAUTHENTICATED } from './auth-harness.js';

/** A login method that authorizes at a fake provider and accepts the code `good`. */
function fakeLogin(): LoginMethod & { seen: Array<PendingLogin | undefined> } {
  const seen: Array<PendingLogin | undefined> = [];
  return {
    seen,
    async authorize(clientState) {
      const state = `state-for-${clientState}`;
      return { authorizeUrl: `https://idp.example.test/authorize?state=${state}`, pending: { state, flow: { verifier: 'v1' } } };
    },
    async callback(query, pending): Promise<Identity> {
      seen.push(pending);
      if (!query.state || !pending || query.state !== pending.state) throw unauthenticated('unexpected state parameter');
      if (query.code !== 'good') throw unauthenticated('the provider refused the login');
      return { method: 'METHOD_OIDC', metadata: { 'io.flipt.auth.email': 'dev@example.test' } };
    },
  };
}

/** The `name=value` of a Set-Cookie line. */
const cookiePair = (setCookie: string): string => setCookie.split(';')[0] ?? '';

test('a login: authorize keeps the pending login in a cookie, the callback opens a session and redirects to the UI', async (t) => {
  const method = fakeLogin();
  const h = await startAuthHarness({ auth: { loginMethods: [{ paths: ['oidc/corp'], method }] } });
  t.teardown(() => h.close());

  const authorize = await h.call('GET', '/auth/v1/method/oidc/corp/authorize?state=ui-1', { headers: { 'X-Forwarded-Prefix': '/flags' } });
  t.is(authorize.status, 200);
  t.deepEqual(authorize.json, { authorizeUrl: 'https://idp.example.test/authorize?state=state-for-ui-1' });
  const stateCookie = authorize.headers.getSetCookie()[0] ?? '';
  t.regex(stateCookie, /^svc_client_state=[^;]+; Path=\/flags\/auth\/v1\/method; Expires=[^;]+; HttpOnly; SameSite=Lax$/);

  const callback = await h.call('GET', '/auth/v1/method/oidc/corp/callback?code=good&state=state-for-ui-1', {
    headers: { Cookie: cookiePair(stateCookie), 'X-Forwarded-Prefix': '/flags' },
  });
  t.is(callback.status, 302);
  t.is(callback.headers.get('location'), '/flags/');
  t.deepEqual(method.seen, [{ state: 'state-for-ui-1', flow: { verifier: 'v1' } }], 'the method gets back what it stored');
  const cookies = callback.headers.getSetCookie();
  t.true(cookies.some((c) => c.startsWith('svc_client_state=; ') && c.includes('Max-Age=0')), 'the state is spent');
  const session = cookies.find((c) => c.startsWith('svc_client_token='));
  t.regex(session ?? '', /^svc_client_token=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
  const clientToken = decodeURIComponent(cookiePair(session ?? '').slice('svc_client_token='.length));
  const stored = await h.store.authentications.getByDigest(digestOf(clientToken));
  t.is(stored?.method, 'METHOD_OIDC');
  t.truthy(stored?.expiresAt, 'a session always expires');
  t.true(Date.parse(stored?.expiresAt ?? '') <= Date.now() + SESSION.tokenLifetimeMs);

  const self = await h.call('GET', '/auth/v1/self', { headers: { Cookie: cookiePair(session ?? '') } });
  t.is(self.status, 200);
  t.is(self.json.metadata['io.flipt.auth.email'], 'dev@example.test');
  t.is(self.headers.get('x-csrf-token'), csrfTokenFor(clientToken, SESSION.csrfKey), 'the session learns its CSRF token');
});

test('a forwarded prefix that is not a plain path is ignored, so a login never redirects to another site', async (t) => {
  const method = fakeLogin();
  const h = await startAuthHarness({ auth: { loginMethods: [{ paths: ['oidc/corp'], method }] } });
  t.teardown(() => h.close());
  for (const prefix of ['//evil.example', 'https://evil.example', '/ok;Domain=evil.example']) {
    const authorize = await h.call('GET', '/auth/v1/method/oidc/corp/authorize?state=s', { headers: { 'X-Forwarded-Prefix': prefix } });
    const stateCookie = authorize.headers.getSetCookie()[0] ?? '';
    t.true(stateCookie.includes('; Path=/auth/v1/method;'), stateCookie);
    t.false(stateCookie.includes('evil'));
    const callback = await h.call('GET', '/auth/v1/method/oidc/corp/callback?code=good&state=state-for-s', {
      headers: { Cookie: cookiePair(stateCookie), 'X-Forwarded-Prefix': prefix },
    });
    t.is(callback.headers.get('location'), '/', prefix);
  }
});

test('a callback without the state cookie, or with a refused code, opens no session', async (t) => {
  const method = fakeLogin();
  const h = await startAuthHarness({ auth: { loginMethods: [{ paths: ['github', 'codehost'], method }] } });
  t.teardown(() => h.close());
  const noCookie = await h.call('GET', '/auth/v1/method/github/callback?code=good&state=state-for-x');
  t.is(noCookie.status, 401);
  t.deepEqual(noCookie.json, { code: 16, message: 'unexpected state parameter', details: [] });
  const pending = Buffer.from(JSON.stringify({ state: 'state-for-x', flow: {} })).toString('base64url');
  const refused = await h.call('GET', '/auth/v1/method/codehost/callback?code=bad&state=state-for-x', { headers: { Cookie: `svc_client_state=${pending}` } });
  t.is(refused.status, 401);
  t.false(refused.headers.getSetCookie().some((c) => c.startsWith('svc_client_token=')));
  const garbage = await h.call('GET', '/auth/v1/method/codehost/callback?code=good&state=state-for-x', { headers: { Cookie: 'svc_client_state=%%%' } });
  t.is(garbage.status, 401);
  t.deepEqual((await h.store.authentications.list({ limit: 10 })).authentications, []);
  t.is((await h.call('GET', '/auth/v1/method/codehost/authorize?state=a')).status, 200, 'the code host answers under its alias too');
});

test('a session cookie authenticates like a bearer token, but its writes need the CSRF token', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const { clientToken } = await issueAuthentication(h.store.authentications, { method: 'METHOD_GITHUB', metadata: {}, expiresAt: new Date(Date.now() + 60_000) });
  const cookie = { Cookie: `svc_client_token=${encodeURIComponent(clientToken)}` };
  const csrf = csrfTokenFor(clientToken, SESSION.csrfKey);

  t.is((await h.call('GET', '/api/v1/namespaces', { headers: cookie })).status, 200);
  const refused = await h.call('POST', '/api/v1/namespaces', { headers: cookie, json: { key: 'csrf', name: 'x' } });
  t.is(refused.status, 403);
  t.deepEqual(refused.json, { code: 7, message: 'missing or invalid CSRF token', details: [] });
  const wrong = await h.call('POST', '/api/v1/namespaces', { headers: { ...cookie, 'X-CSRF-Token': csrfTokenFor(clientToken, 'another-key') }, json: { key: 'csrf', name: 'x' } });
  t.is(wrong.status, 403);
  t.is((await h.call('GET', '/api/v1/namespaces/csrf', { headers: cookie })).status, 404, 'nothing was created');
  t.is((await h.call('POST', '/api/v1/namespaces', { headers: { ...cookie, 'X-CSRF-Token': csrf }, json: { key: 'csrf', name: 'x' } })).status, 200);
  t.is((await h.call('DELETE', '/api/v1/namespaces/csrf', { headers: cookie })).status, 403);
  t.is((await h.call('PUT', '/auth/v1/self/expire', { headers: cookie })).status, 403, 'a forged logout is refused too');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: { Cookie: `flipt_client_token=${encodeURIComponent(clientToken)}` } })).status, 200, 'Flipt\'s cookie name works');

  const logout = await h.call('PUT', '/auth/v1/self/expire', { headers: { ...cookie, 'X-CSRF-Token': csrf } });
  t.is(logout.status, 200);
  const cleared = logout.headers.getSetCookie();
  t.true(cleared.some((c) => c.startsWith('svc_client_token=;') && c.includes('Max-Age=0')));
  t.true(cleared.some((c) => c.startsWith('flipt_client_token=;') && c.includes('Max-Age=0')));

  const after = await h.call('GET', '/auth/v1/self', { headers: cookie });
  t.deepEqual(after.json, UNAUTHENTICATED);
  t.true(after.headers.getSetCookie().some((c) => c.startsWith('svc_client_token=;')), 'a 401 on /auth/v1 clears a stale cookie');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: cookie })).status, 401);
});

test('the Kubernetes route exchanges a service-account token for a client token expiring with it', async (t) => {
  const expiresAt = new Date(Date.now() + 3_600_000);
  const verifier = {
    async verify(token: string): Promise<Identity> {
      if (token !== 'sa-token') throw unauthenticated();
      return { method: 'METHOD_KUBERNETES', metadata: { 'io.svc.auth.k8s.namespace': 'apps' }, expiresAt };
    },
  };
  const readToken = (body: unknown) => String((body as { serviceAccountToken?: unknown }).serviceAccountToken ?? '');
  const h = await startAuthHarness({ auth: { kubernetes: { verifier, readToken } } });
  t.teardown(() => h.close());
  const res = await h.call('POST', '/auth/v1/method/kubernetes/serviceaccount', { json: { serviceAccountToken: 'sa-token' } });
  t.is(res.status, 200, res.text);
  t.like(res.json.authentication, { method: 'METHOD_KUBERNETES', expiresAt: expiresAt.toISOString(), metadata: { 'io.svc.auth.k8s.namespace': 'apps' } });
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: bearer(res.json.clientToken) })).status, 200);
  t.is((await h.call('POST', '/auth/v1/method/kubernetes/serviceaccount', { json: { serviceAccountToken: 'forged' } })).status, 401);
});

test('the method listing: all five methods in Flipt\'s order, login URLs under X-Forwarded-Prefix', async (t) => {
  const h = await startAuthHarness({ auth: { methods: { token: true, github: true, oidcProviders: ['google'], kubernetes: false, jwt: true } } });
  t.teardown(() => h.close());
  const res = await h.call('GET', '/auth/v1/method', { headers: { 'X-Forwarded-Prefix': '/ff/' } });
  t.deepEqual(res.json, {
    methods: [
      { method: 'METHOD_TOKEN', enabled: true, sessionCompatible: false },
      { method: 'METHOD_GITHUB', enabled: true, sessionCompatible: true, metadata: { authorize_url: '/ff/auth/v1/method/github/authorize', callback_url: '/ff/auth/v1/method/github/callback' } },
      {
        method: 'METHOD_OIDC',
        enabled: true,
        sessionCompatible: true,
        metadata: { providers: { google: { authorize_url: '/ff/auth/v1/method/oidc/google/authorize', callback_url: '/ff/auth/v1/method/oidc/google/callback' } } },
      },
      { method: 'METHOD_KUBERNETES', enabled: false, sessionCompatible: false },
      { method: 'METHOD_JWT', enabled: true, sessionCompatible: false },
    ],
  });
  t.is((await h.call('GET', '/auth/v1/method/oidc/google/authorize')).status, 404, 'no login method was handed in for it');
  t.is((await h.call('GET', '/auth/v1/nope')).status, 401, 'unknown /auth/v1 paths are not revealed before authentication');
});

test('not required: every API is open, /auth/v1/self still knows a valid caller, and bad credentials are ignored', async (t) => {
  const h = await startAuthHarness({ required: false });
  t.teardown(() => h.close());
  t.is((await h.call('GET', '/api/v1/namespaces')).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: bearer('garbage') })).status, 200);
  t.deepEqual((await h.call('GET', '/auth/v1/self')).json, UNAUTHENTICATED);
  const created = await h.call('POST', '/auth/v1/method/token', { json: { name: 'open' } });
  t.is(created.status, 200, 'token creation is open too');
  t.is((await h.call('GET', '/auth/v1/self', { headers: bearer(created.json.clientToken) })).json.id, created.json.authentication.id);
  const scoped = await issueToken(h.store.authentications, { name: 's', description: '', namespaceKey: 'team' });
  t.is((await h.call('POST', '/auth/v1/method/token', { headers: bearer(scoped.clientToken), json: { name: 'x' } })).status, 401, 'a namespaced token still cannot create tokens');
});

test('not required: a credential that cannot be checked (the store down) is a 503, not an anonymous request', async (t) => {
  const down = new Authenticator({ store: { getByDigest: () => Promise.reject(unavailable('database unavailable')) } });
  const h = await startAuthHarness({ required: false, auth: { authenticator: down } });
  t.teardown(() => h.close());
  const self = await h.call('GET', '/auth/v1/self', { headers: bearer('some-token') });
  t.is(self.status, 503);
  t.deepEqual(self.json, { code: 14, message: 'database unavailable', details: [] });
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: bearer('some-token') })).status, 200, 'where no credential is read, nothing is checked');
});

test('exclude.management opens /api/v1 while /auth/v1 stays protected', async (t) => {
  const h = await startAuthHarness({ excludeManagement: true });
  t.teardown(() => h.close());
  t.is((await h.call('GET', '/api/v1/namespaces')).status, 200);
  t.is((await h.call('POST', '/api/v1/namespaces', { json: { key: 'ex', name: 'x' } })).status, 200);
  t.is((await h.call('GET', '/auth/v1/tokens')).status, 401);
  t.is((await h.call('POST', '/auth/v1/method/token', { json: { name: 'x' } })).status, 401);
});
