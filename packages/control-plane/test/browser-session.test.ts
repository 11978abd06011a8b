/**
 * `/auth/v1/session`, the UI's sign-in: asked without a credential it answers 200 (no 401 for the
 * browser to log), a pasted token becomes a session cookie that holds in any tab, a namespace-scoped
 * token's session is held to its namespace, its writes need the CSRF token, and deleting or expiring
 * the token ends the sessions opened with it.
 */
import test from 'ava';
import { csrfTokenFor, digestOf, issueToken } from '@ensign/auth';
import { bearer, SESSION, startAuthHarness, UNAUTHENTICATED } from './auth-harness.js';

const cookiePair = (setCookie: string): string => setCookie.split(';')[0] ?? '';

/** The session cookie a reply sets, as a Cookie header, and the client token it holds. */
function sessionOf(headers: Headers): { cookie: Record<string, string>; clientToken: string } {
  const line = headers.getSetCookie().find((c) => c.startsWith('svc_client_token=')) ?? '';
  const pair = cookiePair(line);
  return { cookie: { Cookie: pair }, clientToken: decodeURIComponent(pair.slice('svc_client_token='.length)) };
}

test('without a credential the session answers 200 and says whether sign-in is needed', async (t) => {
  for (const [required, excludeManagement, expected] of [
    [true, false, true],
    [true, true, false],
    [false, false, false],
  ] as const) {
    const h = await startAuthHarness({ required, excludeManagement });
    const res = await h.call('GET', '/auth/v1/session');
    t.is(res.status, 200);
    t.deepEqual(res.json, { signInRequired: expected, signedIn: false });
    t.deepEqual(res.headers.getSetCookie(), [], 'nothing to clear');
    await h.close();
  }
});

test('a pasted token opens a cookie session that answers like the token, in any tab, until the token would end', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const expiresAt = new Date(Date.now() + 10 * 60_000);
  const { clientToken, authentication } = await issueToken(h.store.authentications, { name: 'team lead', description: 'laptop', expiresAt });

  const opened = await h.call('POST', '/auth/v1/session', { json: { clientToken }, headers: { 'Sec-Fetch-Site': 'same-origin' } });
  t.is(opened.status, 200, opened.text);
  const line = opened.headers.getSetCookie().find((c) => c.startsWith('svc_client_token=')) ?? '';
  t.regex(line, /^svc_client_token=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
  const { cookie, clientToken: sessionToken } = sessionOf(opened.headers);
  t.not(sessionToken, clientToken, 'the cookie holds a session of its own, not the pasted token');
  t.is(opened.headers.get('x-csrf-token'), csrfTokenFor(sessionToken, SESSION.csrfKey));
  t.like(opened.json, { signInRequired: true, signedIn: true, via: 'cookie', authentication: { method: 'METHOD_TOKEN', metadata: { 'io.flipt.auth.token.name': 'team lead' } } });
  t.is(opened.json.authentication.metadata['io.ensign.auth.session.parent'], authentication.id);
  const stored = await h.store.authentications.getByDigest(digestOf(sessionToken));
  t.is(stored?.expiresAt, expiresAt.toISOString(), 'the session ends when the token does, its lifetime being longer');

  // Another tab: only the cookie travels.
  const again = await h.call('GET', '/auth/v1/session', { headers: cookie });
  t.like(again.json, { signedIn: true, via: 'cookie' });
  t.is(again.headers.get('x-csrf-token'), csrfTokenFor(sessionToken, SESSION.csrfKey));
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: cookie })).status, 200);
  const refused = await h.call('POST', '/api/v1/namespaces', { headers: cookie, json: { key: 'no-csrf', name: 'x' } });
  t.is(refused.status, 403, 'cookie writes still need the CSRF token');
  const written = await h.call('POST', '/api/v1/namespaces', { headers: { ...cookie, 'X-CSRF-Token': csrfTokenFor(sessionToken, SESSION.csrfKey) }, json: { key: 'csrf', name: 'x' } });
  t.is(written.status, 200, written.text);
});

test('a session lasts at most the session lifetime when the token never ends', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const { clientToken } = await issueToken(h.store.authentications, { name: 'forever', description: '' });
  const before = Date.now();
  const opened = await h.call('POST', '/auth/v1/session', { json: { clientToken } });
  const end = Date.parse(opened.json.authentication.expiresAt);
  t.true(end >= before + SESSION.tokenLifetimeMs && end <= Date.now() + SESSION.tokenLifetimeMs, opened.json.authentication.expiresAt);
});

test('a namespace-scoped token opens a session held to its namespace', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const admin = await issueToken(h.store.authentications, { name: 'admin', description: '' });
  for (const key of ['team-a', 'team-b']) t.is((await h.call('POST', '/api/v1/namespaces', { headers: bearer(admin.clientToken), json: { key, name: key } })).status, 200);
  const { clientToken } = await issueToken(h.store.authentications, { name: 'team a', description: '', namespaceKey: 'team-a' });

  t.deepEqual((await h.call('GET', '/auth/v1/self', { headers: bearer(clientToken) })).json, UNAUTHENTICATED, "Flipt's self stays refused to scoped tokens");
  const scoped = await h.call('GET', '/auth/v1/session', { headers: bearer(clientToken) });
  t.like(scoped.json, { signedIn: true, namespace: 'team-a', via: 'bearer' });

  const opened = await h.call('POST', '/auth/v1/session', { json: { clientToken } });
  t.is(opened.status, 200, opened.text);
  t.like(opened.json, { signedIn: true, namespace: 'team-a' });
  const { cookie, clientToken: sessionToken } = sessionOf(opened.headers);
  const csrf = { ...cookie, 'X-CSRF-Token': csrfTokenFor(sessionToken, SESSION.csrfKey) };
  t.is((await h.call('GET', '/api/v1/namespaces/team-a', { headers: cookie })).status, 200);
  t.is((await h.call('POST', '/api/v1/namespaces/team-a/flags', { headers: csrf, json: { key: 'f', name: 'f' } })).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/team-b/flags', { headers: cookie })).status, 401, 'another namespace');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: cookie })).status, 401, 'the namespace list');
  t.is((await h.call('GET', '/auth/v1/tokens', { headers: cookie })).status, 401, 'the token API');
  t.like((await h.call('GET', '/auth/v1/session', { headers: cookie })).json, { signedIn: true, namespace: 'team-a' });
});

test('a refused or missing token opens no session and the answer names the problem', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const missing = await h.call('POST', '/auth/v1/session', { json: {} });
  t.is(missing.status, 400);
  t.is(missing.json.message, 'invalid field clientToken: must not be empty');
  const wrongType = await h.call('POST', '/auth/v1/session', { json: { clientToken: 42 } });
  t.is(wrongType.status, 400);
  t.regex(wrongType.json.message, /clientToken/);
  const unknown = await h.call('POST', '/auth/v1/session', { json: { clientToken: 'not-a-token' } });
  t.is(unknown.status, 401);
  t.is(unknown.json.message, 'the token was not accepted: it is unknown, has expired or was deleted');
  const expired = await issueToken(h.store.authentications, { name: 'old', description: '', expiresAt: new Date(Date.now() - 1000) });
  t.is((await h.call('POST', '/auth/v1/session', { json: { clientToken: expired.clientToken } })).status, 401);
  for (const res of [missing, wrongType, unknown]) t.false(res.headers.getSetCookie().some((c) => c.startsWith('svc_client_token=') && !c.includes('Max-Age=0')));
  const { authentications } = await h.store.authentications.list({ limit: 100 });
  t.is(authentications.length, 1, 'no session was stored');
});

test("another site's page cannot sign a visitor in (login CSRF)", async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const { clientToken } = await issueToken(h.store.authentications, { name: 'attacker', description: '' });
  for (const site of ['cross-site', 'same-site']) {
    const res = await h.call('POST', '/auth/v1/session', { json: { clientToken }, headers: { 'Sec-Fetch-Site': site, 'Content-Type': 'text/plain' } });
    t.is(res.status, 403, site);
    t.deepEqual(res.headers.getSetCookie(), []);
  }
});

test('signing out ends the session and clears the cookie; it needs the CSRF token', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const { clientToken } = await issueToken(h.store.authentications, { name: 'me', description: '' });
  const { cookie, clientToken: sessionToken } = sessionOf((await h.call('POST', '/auth/v1/session', { json: { clientToken } })).headers);

  const refused = await h.call('DELETE', '/auth/v1/session', { headers: cookie });
  t.is(refused.status, 403);
  t.like((await h.call('GET', '/auth/v1/session', { headers: cookie })).json, { signedIn: true }, 'still signed in');

  const out = await h.call('DELETE', '/auth/v1/session', { headers: { ...cookie, 'X-CSRF-Token': csrfTokenFor(sessionToken, SESSION.csrfKey) } });
  t.is(out.status, 200);
  t.true(out.headers.getSetCookie().some((c) => c.startsWith('svc_client_token=;') && c.includes('Max-Age=0')));
  const after = await h.call('GET', '/auth/v1/session', { headers: cookie });
  t.deepEqual(after.json, { signInRequired: true, signedIn: false, sessionEnded: true }, 'an ended session says so');
  t.true(after.headers.getSetCookie().some((c) => c.startsWith('svc_client_token=;')), 'and its cookie is cleared');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: bearer(clientToken) })).status, 200, 'the token itself still works');
  t.is((await h.call('DELETE', '/auth/v1/session')).status, 200, 'signing out without a session changes nothing');
});

test('deleting or expiring a token ends the sessions opened with it, and only those', async (t) => {
  const h = await startAuthHarness();
  t.teardown(() => h.close());
  const admin = await issueToken(h.store.authentications, { name: 'admin', description: '' });
  const doomed = await issueToken(h.store.authentications, { name: 'doomed', description: '' });
  const expiring = await issueToken(h.store.authentications, { name: 'expiring', description: '' });
  const open = async (clientToken: string) => sessionOf((await h.call('POST', '/auth/v1/session', { json: { clientToken } })).headers).cookie;
  const [first, second, other, adminSession] = [await open(doomed.clientToken), await open(doomed.clientToken), await open(expiring.clientToken), await open(admin.clientToken)];

  t.is((await h.call('DELETE', `/auth/v1/tokens/${doomed.authentication.id}`, { headers: bearer(admin.clientToken) })).status, 200);
  for (const cookie of [first, second]) t.is((await h.call('GET', '/api/v1/namespaces', { headers: cookie })).status, 401, 'a session of the deleted token');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: other })).status, 200, 'a session of another token');

  t.is((await h.call('PUT', '/auth/v1/self/expire', { headers: bearer(expiring.clientToken) })).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: other })).status, 401, 'a session of the expired token');
  t.is((await h.call('GET', '/api/v1/namespaces', { headers: adminSession })).status, 200);
});
