/** "3 minutes ago": how long ago a resource changed or an evaluation ran, from an RFC 3339 time and the current one. */

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

/** The time in full, for a tooltip: `2026-05-01 14:03 UTC`. */
export function absoluteTime(iso: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  return `${new Date(then).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The time to the second, for a tooltip that must be exact: `2026-05-01 14:03:27 UTC`. */
export function exactTime(iso: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  return `${new Date(then).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** When a flag was last evaluated, as the list and the Usage tab say it: "never" for a flag no one asked for. */
export function lastEvaluatedText(iso: string | null | undefined, now: number): string {
  return iso === null || iso === undefined || iso === '' ? 'never' : relativeTime(iso, now);
}
