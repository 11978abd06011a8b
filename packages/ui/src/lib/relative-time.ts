/**
 * "3 minutes ago": how long ago a resource changed or an evaluation ran, from an RFC 3339 time and
 * the current one; and the time itself for a tooltip, in the zone the user chose.
 */
import { formatInstant } from './time-format.js';

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** How long ago `iso` was, in the largest whole unit; "just now" under a minute (or for a future time). */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}

/** The time in full, for a tooltip, in `timeZone` (UTC unless given): `2026-05-01 14:03 UTC`, `2026-05-01 10:03 EDT`. */
export function absoluteTime(iso: string, timeZone = 'UTC'): string {
  return formatInstant(iso, timeZone);
}

/** The time to the second, for a tooltip that must be exact: `2026-05-01 14:03:27 UTC`, `2026-05-01 16:03:27 CEST`. */
export function exactTime(iso: string, timeZone = 'UTC'): string {
  return formatInstant(iso, timeZone, { seconds: true });
}

/** When a flag was last evaluated, as the list and the Usage tab say it: "never" for a flag no one asked for. */
export function lastEvaluatedText(iso: string | null | undefined, now: number): string {
  return iso === null || iso === undefined || iso === '' ? 'never' : relativeTime(iso, now);
}
