/**
 * `/auth/v1/session`: the UI's view of its own sign-in, outside Flipt's `/auth/v1/self` (which
 * answers 401 to no caller and refuses namespace-scoped tokens, as Flipt's does).
 * - `GET` always answers 200: whether the management API needs a credential, and the caller if
 *   any, with its namespace when scoped. A session cookie that is no longer valid is cleared and
 *   reported as ended, so the login page can say why it is shown.
 * - `POST {clientToken}` trades a pasted client token or JWT for a browser session (a cookie,
 *   so it holds in every tab until it ends; the pasted credential is not kept by the page).
 * - `DELETE` ends the cookie's session; like every cookie write it needs the CSRF token.
 * The path is public to the access policy: these routes resolve the credential themselves.
 */
import {
  type AccessPolicy,
  type Authenticator,
  assertCsrf,
  type Caller,
  type Credential,
  CSRF_HEADER,
  clearedSessionCookies,
  extractCredential,
  type SessionSettings,
  sessionCookie,
  sessionCsrfToken,
} from '@ensign/auth';
import { Code, isAppError, permissionDenied, readString, emptyField, unauthenticated } from '@ensign/core';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { bodyOf } from '../../http/input.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { authenticationJson } from './authentication-json.js';
import type { AuthenticationService } from './authentication.service.js';

/** Where the routes are, below `/auth/v1`. */
export const BROWSER_SESSION_PATH = '/session';

export interface BrowserSessionOptions {
  service: AuthenticationService;
  authenticator: Authenticator;
  policy: AccessPolicy;
  session: SessionSettings;
}

/** The caller behind a credential, or undefined when there is none or it is refused. */
async function callerOrNone(authenticator: Authenticator, credential: Credential): Promise<Caller | undefined> {
  try {
    return await authenticator.authenticate(credential);
  } catch (err) {
    if (isAppError(err) && err.code === Code.Unauthenticated) return undefined;
    throw err;
  }
}

const isCookie = (credential: Credential): boolean => credential.kind === 'token' && credential.via === 'cookie';

/**
 * A sign-in posted by another site's page would sign the visitor in as someone else (login CSRF);
 * browsers say where a request comes from, and only the UI's own page may trade a credential.
 */
function assertSameOrigin(ctx: AppContext): void {
  const site = ctx.get('Sec-Fetch-Site');
  if (site === 'cross-site' || site === 'same-site') throw permissionDenied('a session can only be opened from the UI of this service');
}

export function registerBrowserSessionRoutes(router: AppRouter, options: BrowserSessionOptions): void {
  const { service, authenticator, policy, session } = options;
  const clearCookies = (ctx: AppContext) => {
    for (const cookie of clearedSessionCookies(session)) ctx.append('Set-Cookie', cookie);
  };
  const describe = (ctx: AppContext, caller: Caller | undefined, ended = false) => {
    const csrf = sessionCsrfToken(caller, session.csrfKey);
    if (csrf !== undefined) ctx.set(CSRF_HEADER, csrf);
    sendJson(ctx, {
      signInRequired: policy.guards('management'),
      signedIn: caller?.authentication !== undefined,
      ...(caller?.authentication === undefined ? {} : { authentication: authenticationJson(caller.authentication), via: caller.via }),
      ...(caller?.namespace === undefined ? {} : { namespace: caller.namespace }),
      ...(ended ? { sessionEnded: true } : {}),
    });
  };

  router.get(BROWSER_SESSION_PATH, async (ctx) => {
    const credential = extractCredential(ctx.req.headers);
    const caller = await callerOrNone(authenticator, credential);
    const ended = caller === undefined && isCookie(credential);
    if (ended) clearCookies(ctx);
    describe(ctx, caller, ended);
  });

  router.post(BROWSER_SESSION_PATH, async (ctx) => {
    assertSameOrigin(ctx);
    const token = readString(bodyOf(ctx), 'clientToken').trim();
    if (token === '') throw emptyField('clientToken');
    // Presented as a bearer value would be, so a JWT is verified as one.
    const caller = await callerOrNone(authenticator, { kind: 'token', token, via: 'bearer' });
    if (caller?.authentication === undefined) throw unauthenticated('the token was not accepted: it is unknown, has expired or was deleted');
    const { clientToken, authentication } = await service.openBrowserSession(caller.authentication);
    ctx.append('Set-Cookie', sessionCookie(clientToken, new Date(authentication.expiresAt ?? Date.now()), session));
    describe(ctx, { ...caller, authentication, via: 'cookie', clientToken });
  });

  router.delete(BROWSER_SESSION_PATH, async (ctx) => {
    const credential = extractCredential(ctx.req.headers);
    const caller = isCookie(credential) ? await callerOrNone(authenticator, credential) : undefined;
    if (caller !== undefined) {
      assertCsrf(caller, ctx.method, ctx.get(CSRF_HEADER) || undefined, session.csrfKey);
      const id = caller.authentication?.id;
      if (id !== undefined) await service.expire(id);
    }
    clearCookies(ctx);
    sendEmpty(ctx);
  });
}
