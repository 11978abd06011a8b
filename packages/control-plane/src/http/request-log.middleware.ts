import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from './app-state.js';

/** One info line per request on a child logger that carries the request id. */
export function requestLogMiddleware(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    const { method, path } = ctx;
    ctx.state.log = logger.child({ reqId: randomUUID() });
    try {
      await next();
    } finally {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      ctx.state.log.info({ method, path, status: ctx.status, durationMs }, 'request');
    }
  };
}
