/**
 * The times of schedules, windows and ramps: RFC 3339 with a time of day (a date alone is not a
 * time), as epoch milliseconds. Clocks give whole milliseconds, so a time with a fraction of a
 * millisecond takes effect at the next whole one: `at ≤ t` holds exactly when it would in nanoseconds.
 */
import { parseInstant } from './go-datetime.js';

/** Epoch milliseconds of `s`, or NaN when it is not an RFC 3339 time. */
export function timestampMs(s: unknown): number {
  if (typeof s !== 'string' || s.length <= 10) return NaN;
  const instant = parseInstant(s);
  if (instant === undefined) return NaN;
  return instant.subMs > 0 ? instant.ms + 1 : instant.ms;
}
