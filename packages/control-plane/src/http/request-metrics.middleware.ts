/**
 * Counts every answered request of the control plane by method, route pattern and status (for
 * `/metrics`); a request no router matched (the UI's files, unknown paths) is counted under
 * `(unmatched)`, so raw paths never become label values.
 */
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import { matchedRoute } from './matched-route.js';

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
      recorder.http(ctx.method, matchedRoute(ctx), ctx.status, performance.now() - started);
    }
  };
}
