import type { Operations } from '../../auth/operation.middleware.js';
/**
 * `/auth/v1`: the method listing, the caller's own authentication, the token list, and the token
 * method. The authentication middleware has already resolved `ctx.state.caller` (and refused
 * namespace-scoped tokens and cookie writes without a CSRF token).
 */
import { type Caller, CSRF_HEADER, clearedSessionCookies, type SessionSettings, sessionCsrfToken } from '@ensign/auth';
import { invalid, unauthenticated } from '@ensign/core';
import { forwardedPrefix } from '../../auth/forwarded-prefix.js';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { bodyOf, queryOf } from '../../http/input.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { authenticationJson } from './authentication-json.js';
import type { AuthenticationService } from './authentication.service.js';
import { type EnabledMethods, listMethods } from './method-catalog.js';
import { decodeCreateToken, decodeListTokens, readTimestamp } from './token.decode.js';

export interface AuthRoutesOptions {
  service: AuthenticationService;
  methods: EnabledMethods;
  session: SessionSettings;
}

const callerOf = (ctx: AppContext): Caller => {
  const caller = ctx.state.caller;
  if (caller === undefined) throw unauthenticated();
  return caller;
};

/** Registers the routes on a router mounted at `/auth/v1`. */
export function registerAuthRoutes(router: AppRouter, options: AuthRoutesOptions, op: Operations): void {
  const { service, methods, session } = options;

  router.get('/method', (ctx) => {
    sendJson(ctx, listMethods(methods, forwardedPrefix(ctx)));
  });

  router.get('/self', (ctx) => {
    const caller = callerOf(ctx);
    if (caller.authentication === undefined) throw unauthenticated();
    // A browser session learns its CSRF token here; only same-origin script can read it.
    const csrf = sessionCsrfToken(caller, session.csrfKey);
    if (csrf !== undefined) ctx.set(CSRF_HEADER, csrf);
    sendJson(ctx, authenticationJson(caller.authentication));
  });

  router.put('/self/expire', async (ctx) => {
    const caller = callerOf(ctx);
    const id = caller.authentication?.id;
    if (id === undefined) throw invalid('a JWT authentication is not stored and cannot be expired');
    await service.expire(id, readTimestamp(queryOf(ctx), 'expiresAt'));
    for (const cookie of clearedSessionCookies(session)) ctx.append('Set-Cookie', cookie);
    sendEmpty(ctx);
  });

  router.get('/tokens', op('ListAuthentications'), async (ctx) => {
    const page = await service.list(decodeListTokens(queryOf(ctx)));
    sendJson(ctx, { authentications: page.authentications.map(authenticationJson), nextPageToken: page.nextPageToken });
  });

  router.get('/tokens/:id', op('GetAuthentication'), async (ctx) => {
    sendJson(ctx, authenticationJson(await service.get(ctx.params.id ?? '')));
  });

  router.delete('/tokens/:id', op('DeleteAuthentication'), async (ctx) => {
    await service.delete(ctx.params.id ?? '');
    sendEmpty(ctx);
  });

  if (methods.token) {
    router.post('/method/token', op('CreateToken'), async (ctx) => {
      const { clientToken, authentication } = await service.createToken(decodeCreateToken(bodyOf(ctx)));
      sendJson(ctx, { clientToken, authentication: authenticationJson(authentication) });
    });
  }
}
