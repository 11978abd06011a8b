/** A response's `timestamp` (end time, RFC 3339 UTC) and `requestDurationMillis` (float ms since arrival). */

/** When an evaluation ended and how long its request took. */
export interface Finished {
  timestamp: string;
  requestDurationMillis: number;
}

let lastMillis = Number.NaN;
let lastTimestamp = '';

/** RFC 3339 in UTC; formatted once per millisecond, as many responses share one under load. */
function timestampOf(millis: number): string {
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastTimestamp = new Date(millis).toISOString();
  }
  return lastTimestamp;
}

/**
 * The time fields of a response to a request that arrived at `started` (`performance.now()`). The
 * duration is kept to whole nanoseconds, as Flipt's (nanoseconds / 10^6) is: short to write, and
 * free of the float noise of subtracting two clock readings (`0.2676380000048084`).
 */
export function finishedAt(started: number, now: () => number): Finished {
  return { timestamp: timestampOf(now()), requestDurationMillis: Math.round((performance.now() - started) * 1e6) / 1e6 };
}
