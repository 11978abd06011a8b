import { AppError, Code } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

/** COMPAT(flipt): trailing slashes are stripped before routing. */
export function stripTrailingSlash(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.replace(/\/+$/, '') || '/';
    await next();
  };
}

/** What grpc-gateway answers on a known path with a method it does not serve (501, code 12). */
export const methodNotAllowed = (): AppError => new AppError(Code.Unimplemented, 'Method Not Allowed');

/** Unmatched paths under one of `prefixes` get grpc-gateway's 404 body instead of Koa's default. */
export function notFoundUnder(prefixes: readonly string[]): Middleware<AppState> {
  const isUnder = (path: string) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));
  return async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null && isUnder(ctx.path)) {
      throw new AppError(Code.NotFound, 'Not Found');
    }
  };
}
