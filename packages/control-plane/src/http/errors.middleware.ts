import { challengeHeaders, errorBody, internal, isAppError, isServerFault } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import { sendJson } from './respond.js';

/**
 * Turns every thrown error into Flipt's `{code, message, details: []}` body: AppErrors with
 * their status, anything else a logged 500 whose cause stays out of the response.
 */
export function errorsMiddleware(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const appErr = isAppError(err) ? err : internal();
      if (isServerFault(err)) ctx.state.log.error({ err }, 'request failed');
      const challenge = challengeHeaders(appErr);
      if (challenge !== undefined) ctx.set(challenge);
      sendJson(ctx, errorBody(appErr), appErr.httpStatus);
    }
  };
}
