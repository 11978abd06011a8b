/**
 * One server span per request when tracing is on, continuing the caller's trace (`traceparent`),
 * named `METHOD route-pattern` once the router has matched (`METHOD (unmatched)` otherwise). With
 * tracing off it only passes the request on.
 */
import { activeTracing } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import { matchedRoute } from './matched-route.js';

export function tracingMiddleware(): Middleware<AppState> {
  return (ctx, next) => {
    const tracing = activeTracing();
    if (tracing === undefined) return next();
    const attributes = { 'http.request.method': ctx.method, 'url.path': ctx.path };
    return tracing.inSpan(`${ctx.method} ${ctx.path}`, attributes, async (span) => {
      try {
        await next();
      } finally {
        const pattern = matchedRoute(ctx);
        span.rename(`${ctx.method} ${pattern}`);
        span.setAttributes({ 'http.route': pattern, 'http.response.status_code': ctx.status });
        if (ctx.status >= 500) span.fail(new Error(`HTTP ${ctx.status}`));
      }
    }, ctx.req.headers);
  };
}
