import { setTimeout as sleep } from 'node:timers/promises';
import { HEALTH_TIMEOUT_MS } from '@ensign/core';
import type { AppRouter } from '../http/app-state.js';
import { sendJson } from '../http/respond.js';

/** Anything that can say whether storage answers (the management store does). */
export interface Pingable {
  ping(): Promise<void>;
}

export interface HealthOptions {
  timeoutMs?: number;
  /** Details added to the body as `storage` (declarative storage's last sync), when given. */
  storage?: () => Record<string, unknown>;
  /** Added as `authorization` (the policy files: which engine decides, each file's version, the latest error). */
  authorization?: () => unknown;
}

/**
 * GET /health: SERVING (200) when storage answers in time, NOT_SERVING (503) otherwise. With
 * declarative storage the body also says when the files were last applied and why the latest
 * look at them failed; a failed sync keeps the last good state serving, so it stays SERVING.
 */
export function registerHealthRoutes(router: AppRouter, store: Pingable, options: HealthOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
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
    const status = healthy ? 'SERVING' : 'NOT_SERVING';
    // A policy file that failed to reload leaves the last good one deciding: still SERVING, and said here.
    const details = { ...(options.storage === undefined ? {} : { storage: options.storage() }), ...(options.authorization === undefined ? {} : { authorization: options.authorization() }) };
    sendJson(ctx, { status, ...details }, healthy ? 200 : 503);
  });
}
