import { errorBody, errorHeaders, internal, isAppError, isServerFault } from '@ensign/core';
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
      const headers = errorHeaders(appErr);
      if (headers !== undefined) ctx.set(headers);
      sendJson(ctx, errorBody(appErr), appErr.httpStatus);
    }
  };
}
