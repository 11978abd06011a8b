import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

/** Whatever publishes snapshots after commits; `settled` resolves once all received so far are out. */
export interface SnapshotsSettled {
  settled(): Promise<void>;
}

/** How long a committed write waits for its snapshot before answering anyway. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 5_000;

const MUTATING = new Set(['POST', 'PUT', 'DELETE']);

/**
 * Read-your-writes: a mutating request answers only once the snapshots of its writes are
 * published, so the very next evaluation sees them. A request whose handler threw wrote nothing
 * and answers at once; reads never wait. The write has committed either way, so a publish that
 * hangs (a stuck database read) delays the answer by at most `timeoutMs`, then it is sent with a
 * warning logged; the publisher's next run catches the evaluators up.
 */
export function settleWritesMiddleware(
  snapshots: SnapshotsSettled,
  timeoutMs = DEFAULT_SETTLE_TIMEOUT_MS,
): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (!MUTATING.has(ctx.method)) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), timeoutMs);
    });
    const late = await Promise.race([snapshots.settled().then(() => false), timedOut]);
    clearTimeout(timer);
    if (late) ctx.state.log.warn({ timeoutMs }, 'snapshot not published in time; answering the committed write anyway');
  };
}
