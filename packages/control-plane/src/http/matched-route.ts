/** The pattern of the route @koa/router matched (prefix included), so raw paths never become labels or span names. */
import type { Context } from 'koa';

const UNMATCHED = '(unmatched)';

export function matchedRoute(ctx: Context): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof route === 'string' ? route : UNMATCHED;
}
