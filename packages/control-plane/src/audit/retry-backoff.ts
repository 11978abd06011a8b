/**
 * When to retry a failed delivery: exponential backoff from ~100 ms, doubling, each wait capped,
 * with jitter so that sinks recovering together are not hit in step; an event is given up once its
 * waits add up to the sink's budget (Flipt's `max_backoff_duration`).
 */

export const INITIAL_BACKOFF_MS = 100;
/** No single wait is longer, so a receiver that comes back is tried again soon. */
export const MAX_WAIT_MS = 5_000;

/**
 * The wait before retry `attempt` (0 for the first retry), given `spentMs` already waited, or
 * undefined when the budget is used up. The last wait is cut to what remains of the budget.
 */
export function nextBackoff(attempt: number, spentMs: number, budgetMs: number, random: () => number = Math.random): number | undefined {
  const remaining = budgetMs - spentMs;
  if (remaining <= 0) return undefined;
  const base = Math.min(MAX_WAIT_MS, INITIAL_BACKOFF_MS * 2 ** attempt);
  // "Equal jitter": between half and all of the exponential wait.
  const wait = base / 2 + (random() * base) / 2;
  return Math.min(Math.round(wait), remaining);
}
