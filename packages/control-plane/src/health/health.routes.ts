import { setTimeout as sleep } from 'node:timers/promises';
import { HEALTH_TIMEOUT_MS } from '@ensign/core';
import type { AppRouter } from '../http/app-state.js';
import { sendJson } from '../http/respond.js';

/** Anything that can say whether storage answers (the management store does). */
export interface Pingable {
  ping(): Promise<void>;
}

/** GET /health: SERVING (200) when storage answers in time, NOT_SERVING (503) otherwise. */
export function registerHealthRoutes(router: AppRouter, store: Pingable, timeoutMs = HEALTH_TIMEOUT_MS): void {
  router.get('/health', async (ctx) => {
    const timer = new AbortController();
    let healthy: boolean;
    try {
      healthy = await Promise.race([
        store.ping().then(() => true),
        sleep(timeoutMs, false, { signal: timer.signal }),
      ]);
    } catch (err) {
      ctx.state.log.warn({ err }, 'health check failed');
      healthy = false;
    } finally {
      timer.abort();
    }
    sendJson(ctx, { status: healthy ? 'SERVING' : 'NOT_SERVING' }, healthy ? 200 : 503);
  });
}
