/**
 * Who is calling the control plane. With `authentication.required`, every `/api/v1` and
 * `/auth/v1` request but the login routes needs a valid credential (401 otherwise); without it,
 * only `/auth/v1` looks at credentials (so `/auth/v1/self` works) and nothing is refused for lack
 * of one. Requests authenticated by a session cookie must carry the session's CSRF token to
 * change anything, and namespace-scoped tokens are refused on `/auth/v1`.
 */
import { actorOf, assertCsrf, assertScope, type Authenticator, type Caller, CSRF_HEADER, extractCredential, runAs, UNSCOPED } from '@ensign/auth';
import { isAppError, unauthenticated } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import { surfaceOf } from './auth-surface.js';

export interface AuthenticationMiddlewareOptions {
  authenticator: Authenticator;
  required: boolean;
  /** `authentication.exclude.management`: `/api/v1` served without authentication. */
  excludeManagement: boolean;
  /** The key session CSRF tokens are derived with. */
  csrfKey: string;
}

export function authenticationMiddleware(options: AuthenticationMiddlewareOptions): Middleware<AppState> {
  const { authenticator, required } = options;
  return async (ctx, next) => {
    const surface = surfaceOf(ctx.path);
    const guarded = required && (surface === 'auth' || (surface === 'management' && !options.excludeManagement));
    if (!guarded && surface !== 'auth') return next();

    let caller: Caller | undefined;
    try {
      caller = await authenticator.authenticate(extractCredential(ctx.req.headers));
    } catch (err) {
      // Not required: a bad credential is as good as none (every request is served anyway).
      if (guarded || !isAppError(err)) throw err;
    }
    if (guarded && caller === undefined) throw unauthenticated();
    assertCsrf(caller, ctx.method, ctx.get(CSRF_HEADER) || undefined, options.csrfKey);
    // COMPAT(flipt): namespace-scoped tokens may not use the authentication API at all.
    if (surface === 'auth') assertScope(caller, UNSCOPED);
    if (caller === undefined) return next();
    ctx.state.caller = caller;
    return runAs(actorOf(caller), next);
  };
}
