import { gatewayNotFound, withoutTrailingSlash } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

export { methodNotAllowed } from '@ensign/core';

/** COMPAT(flipt): trailing slashes are stripped before routing. */
export function stripTrailingSlash(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.path = withoutTrailingSlash(ctx.path);
    await next();
  };
}

/** Unmatched paths under one of `prefixes` get grpc-gateway's 404 body instead of Koa's default. */
export function notFoundUnder(prefixes: readonly string[]): Middleware<AppState> {
  const isUnder = (path: string) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));
  return async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null && isUnder(ctx.path)) throw gatewayNotFound();
  };
}
