/**
 * Browser sessions: the cookies a login sets and clears, and their CSRF token. The CSRF token is
 * derived from the session's client token rather than stored: only a page that can read it from
 * an authenticated response (same origin) can echo it, while the HttpOnly cookie a cross-site
 * request carries along is useless without it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { permissionDenied } from '@ensign/core';
import type { Caller } from './caller.js';
import { SESSION_COOKIE, SESSION_COOKIES } from './credentials.js';

/** Request and response header of the CSRF token. */
export const CSRF_HEADER = 'X-CSRF-Token';
/** The cookie holding a login in progress (state and flow data) until the callback. */
export const STATE_COOKIE = 'svc_client_state';

/** Keys the HMAC when `authentication.session.csrf.key` is not set; the token stays unguessable without the cookie. */
const DEFAULT_CSRF_KEY = 'ensign-session-csrf';

/** Session cookie settings (`authentication.session.*`). */
export interface SessionSettings {
  /** Cookie domain; empty or `localhost` sets no Domain attribute. */
  domain: string;
  secure: boolean;
  /** Lifetime of a login session and its cookie. */
  tokenLifetimeMs: number;
  /** Lifetime of the state cookie of a login in progress. */
  stateLifetimeMs: number;
  /** HMAC key of CSRF tokens; empty uses a fixed label. */
  csrfKey: string;
}

/** The CSRF token of the session whose client token is `clientToken`. */
export const csrfTokenFor = (clientToken: string, key: string): string =>
  createHmac('sha256', key === '' ? DEFAULT_CSRF_KEY : key).update(clientToken, 'utf8').digest('base64url');

/** The CSRF token of the caller's browser session; undefined for a caller that is no cookie session (bearer, JWT, none). */
export function sessionCsrfToken(caller: Caller | undefined, key: string): string | undefined {
  return caller?.via === 'cookie' && caller.clientToken !== undefined ? csrfTokenFor(caller.clientToken, key) : undefined;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** Methods that change state and so need a CSRF token when sent by a browser session. */
export const isStateChanging = (method: string): boolean => STATE_CHANGING.has(method.toUpperCase());

/** Whether `presented` is the CSRF token of `clientToken` (constant-time). */
export function csrfMatches(clientToken: string, presented: string | undefined, key: string): boolean {
  if (presented === undefined || presented === '') return false;
  const expected = Buffer.from(csrfTokenFor(clientToken, key));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Refuses (403) a state-changing request authenticated by a session cookie that does not carry
 * the session's CSRF token. Bearer and JWT requests are not sent by browsers on their own and pass.
 */
export function assertCsrf(caller: Caller | undefined, method: string, presented: string | undefined, key: string): void {
  if (caller?.via !== 'cookie' || !isStateChanging(method)) return;
  if (caller.clientToken === undefined || !csrfMatches(caller.clientToken, presented, key)) {
    throw permissionDenied('missing or invalid CSRF token');
  }
}

/** COMPAT(flipt): a configured domain may carry a scheme or port; the cookie takes the host name only. */
export function cookieDomain(domain: string): string | undefined {
  let host = domain.trim();
  if (host === '') return undefined;
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '').replace(/:\d+$/, '');
  return host === '' || host === 'localhost' ? undefined : host;
}

interface CookieAttributes {
  path: string;
  domain?: string | undefined;
  expires?: Date;
  /** Seconds; 0 deletes the cookie. */
  maxAge?: number;
  secure: boolean;
  sameSite: 'Strict' | 'Lax';
}

/** One Set-Cookie value; values are URL-encoded so any token survives. */
function serializeCookie(name: string, value: string, attrs: CookieAttributes): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${attrs.path}`];
  if (attrs.domain !== undefined) parts.push(`Domain=${attrs.domain}`);
  if (attrs.expires !== undefined) parts.push(`Expires=${attrs.expires.toUTCString()}`);
  if (attrs.maxAge !== undefined) parts.push(`Max-Age=${attrs.maxAge}`);
  parts.push('HttpOnly', `SameSite=${attrs.sameSite}`);
  if (attrs.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The session cookie a login sets: the client token, HttpOnly, SameSite=Strict, for the whole site. */
export function sessionCookie(clientToken: string, expires: Date, settings: SessionSettings): string {
  return serializeCookie(SESSION_COOKIE, clientToken, {
    path: '/',
    domain: cookieDomain(settings.domain),
    expires,
    secure: settings.secure,
    sameSite: 'Strict',
  });
}

/** Set-Cookie values deleting every session cookie (logout, or a session that is no longer valid). */
export function clearedSessionCookies(settings: SessionSettings): string[] {
  return SESSION_COOKIES.map((name) =>
    serializeCookie(name, '', { path: '/', domain: cookieDomain(settings.domain), expires: new Date(0), maxAge: 0, secure: settings.secure, sameSite: 'Strict' }),
  );
}

/**
 * The cookie holding a login in progress, sent back only to the login routes (`path`). SameSite=Lax:
 * the identity provider's redirect to the callback is a cross-site top-level navigation.
 */
export function stateCookie(value: string, path: string, now: Date, settings: SessionSettings): string {
  return serializeCookie(STATE_COOKIE, value, {
    path,
    domain: cookieDomain(settings.domain),
    expires: new Date(now.getTime() + settings.stateLifetimeMs),
    secure: settings.secure,
    sameSite: 'Lax',
  });
}

/** Deletes the state cookie once the callback used it. */
export const clearedStateCookie = (path: string, settings: SessionSettings): string =>
  serializeCookie(STATE_COOKIE, '', { path, domain: cookieDomain(settings.domain), expires: new Date(0), maxAge: 0, secure: settings.secure, sameSite: 'Lax' });
