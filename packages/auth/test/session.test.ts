import test from 'ava';
import { Code } from '@ensign/core';
import { assertCsrf, clearedSessionCookies, cookieDomain, csrfMatches, csrfTokenFor, sessionCookie, sessionCsrfToken, stateCookie, type Caller, type SessionSettings } from '../src/index.js';

const settings: SessionSettings = { domain: 'https://flags.example.com:8443', secure: true, tokenLifetimeMs: 86_400_000, stateLifetimeMs: 600_000, csrfKey: '' };
const cookieCaller: Caller = { method: 'METHOD_OIDC', via: 'cookie', clientToken: 'session-token' };

test('the CSRF token is derived from the session token and the key, and differs between sessions and keys', (t) => {
  const a = csrfTokenFor('session-token', '');
  t.is(a, csrfTokenFor('session-token', ''));
  t.regex(a, /^[A-Za-z0-9_-]{43}$/);
  t.not(a, csrfTokenFor('other-session', ''));
  t.not(a, csrfTokenFor('session-token', 'configured-key'));
  t.true(csrfMatches('session-token', a, ''));
  t.false(csrfMatches('session-token', a.slice(0, -1), ''));
  t.false(csrfMatches('session-token', undefined, ''));
  t.false(csrfMatches('session-token', '', ''));
});

test('a state-changing request by cookie needs the matching CSRF token (403 otherwise)', (t) => {
  const token = csrfTokenFor('session-token', 'k');
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    t.notThrows(() => assertCsrf(cookieCaller, method, token, 'k'));
    const err = t.throws(() => assertCsrf(cookieCaller, method, undefined, 'k'));
    t.like(err, { code: Code.PermissionDenied });
    t.throws(() => assertCsrf(cookieCaller, method, csrfTokenFor('session-token', 'other-key'), 'k'));
    t.throws(() => assertCsrf(cookieCaller, method, csrfTokenFor('someone-else', 'k'), 'k'));
  }
});

test('reads by cookie, and bearer or JWT requests, need no CSRF token', (t) => {
  t.notThrows(() => assertCsrf(cookieCaller, 'GET', undefined, ''));
  t.notThrows(() => assertCsrf(cookieCaller, 'HEAD', undefined, ''));
  t.notThrows(() => assertCsrf({ ...cookieCaller, via: 'bearer' }, 'POST', undefined, ''));
  t.notThrows(() => assertCsrf({ method: 'METHOD_JWT', via: 'jwt' }, 'DELETE', undefined, ''));
  t.notThrows(() => assertCsrf(undefined, 'POST', undefined, ''));
});

test('the session cookie is HttpOnly, SameSite=Strict, for the whole site, on the configured host name', (t) => {
  const cookie = sessionCookie('tok=', new Date('2030-01-01T00:00:00Z'), settings);
  t.is(cookie, 'svc_client_token=tok%3D; Path=/; Domain=flags.example.com; Expires=Tue, 01 Jan 2030 00:00:00 GMT; HttpOnly; SameSite=Strict; Secure');
  t.false(sessionCookie('t', new Date(0), { ...settings, secure: false, domain: 'localhost' }).includes('Domain='));
  t.false(sessionCookie('t', new Date(0), { ...settings, secure: false }).includes('Secure'));
});

test('logging out clears both accepted session cookies', (t) => {
  const cleared = clearedSessionCookies(settings);
  t.is(cleared.length, 2);
  t.true(cleared[0]!.startsWith('svc_client_token=; Path=/;'));
  t.true(cleared[1]!.startsWith('flipt_client_token=; Path=/;'));
  for (const c of cleared) t.true(c.includes('Max-Age=0'));
});

test('the state cookie is Lax (the provider redirects cross-site) and lives state_lifetime', (t) => {
  const cookie = stateCookie('v', '/auth/v1/method', new Date('2030-01-01T00:00:00Z'), settings);
  t.true(cookie.includes('SameSite=Lax'));
  t.true(cookie.includes('Path=/auth/v1/method'));
  t.true(cookie.includes('Expires=Tue, 01 Jan 2030 00:10:00 GMT'));
});

test('cookie domains drop scheme, port and path, and localhost means none', (t) => {
  t.is(cookieDomain('https://a.example.com:8080/x'), 'a.example.com');
  t.is(cookieDomain('a.example.com'), 'a.example.com');
  t.is(cookieDomain('http://localhost:8080'), undefined);
  t.is(cookieDomain(''), undefined);
});

test('a session learns its CSRF token only when it is a cookie session', (t) => {
  const key = 'k';
  t.is(sessionCsrfToken({ method: 'METHOD_OIDC', via: 'cookie', clientToken: 'ct' }, key), csrfTokenFor('ct', key));
  t.is(sessionCsrfToken({ method: 'METHOD_TOKEN', via: 'bearer', clientToken: 'ct' }, key), undefined, 'a bearer caller needs none');
  t.is(sessionCsrfToken({ method: 'METHOD_JWT', via: 'jwt' }, key), undefined);
  t.is(sessionCsrfToken(undefined, key), undefined);
});
