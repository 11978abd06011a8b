/**
 * Who is calling the control plane, by the access policy: with `authentication.required`, every
 * `/api/v1` (unless `exclude.management`) and `/auth/v1` request but the login routes needs a valid
 * credential (401 otherwise); without it, only `/auth/v1` looks at credentials (so `/auth/v1/self`
 * works) and nothing is refused for lack of one. Requests authenticated by a session cookie must
 * carry the session's CSRF token to change anything, and namespace-scoped tokens are refused on
 * `/auth/v1`.
 */
import { type AccessPolicy, actorOf, assertCsrf, type Authenticator, CSRF_HEADER, extractCredential, runAs } from '@ensign/auth';
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import { surfaceOf } from './auth-surface.js';

export interface AuthenticationMiddlewareOptions {
  authenticator: Authenticator;
  /** `authentication.required` and `exclude.*`. */
  policy: AccessPolicy;
  /** The key session CSRF tokens are derived with. */
  csrfKey: string;
}

export function authenticationMiddleware(options: AuthenticationMiddlewareOptions): Middleware<AppState> {
  const { authenticator, policy } = options;
  return async (ctx, next) => {
    const surface = surfaceOf(ctx.path);
    if (!policy.readsCredential(surface)) return next();
    const caller = await policy.callerOf(surface, () => authenticator.authenticate(extractCredential(ctx.req.headers)));
    assertCsrf(caller, ctx.method, ctx.get(CSRF_HEADER) || undefined, options.csrfKey);
    if (caller === undefined) return next();
    ctx.state.caller = caller;
    return runAs(actorOf(caller), next);
  };
}
