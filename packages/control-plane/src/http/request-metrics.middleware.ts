/**
 * Counts every answered request of the control plane by method, route pattern and status (for
 * `/metrics`); a request no router matched (the UI's files, unknown paths) is counted under
 * `(unmatched)`, so raw paths never become label values.
 */
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

/** What the middleware reports to; the process's request tally. */
export interface HttpRequestRecorder {
  http(method: string, route: string, status: number, ms: number): void;
}

export function requestMetricsMiddleware(recorder: HttpRequestRecorder): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // @koa/router names the pattern of the route it matched (prefix included).
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      recorder.http(ctx.method, typeof route === 'string' ? route : '(unmatched)', ctx.status, performance.now() - started);
    }
  };
}
