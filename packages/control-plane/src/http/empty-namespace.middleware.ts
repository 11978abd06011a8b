import { DEFAULT_NAMESPACE } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

/**
 * COMPAT(flipt): Flipt's gateway binds the empty segment of `<prefix>/namespaces//…` as an empty
 * namespace, which every route reads as `default` (Flipt's Go SDK sends such paths). Rewriting it
 * before authentication and routing lets the routes, and the scope check of a namespaced token,
 * see `default`.
 */
export function emptyNamespaceSegment(prefix: string): Middleware<AppState> {
  const empty = `${prefix}/namespaces//`;
  return async (ctx, next) => {
    if (ctx.path.startsWith(empty)) ctx.path = `${prefix}/namespaces/${DEFAULT_NAMESPACE}/${ctx.path.slice(empty.length)}`;
    await next();
  };
}
