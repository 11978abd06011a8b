/** Minute and hour buckets of the evaluation counts, and which rows cover a window. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** The per-minute counts, kept for days. */
export const MINUTES_TABLE = 'evaluation_counts';
/** The per-hour counts, kept for months. */
export const HOURS_TABLE = 'evaluation_hours';

/** The start of the `unitMs`-long interval holding `ms`, intervals counted from the epoch. */
export const floorTo = (ms: number, unitMs: number): number => Math.floor(ms / unitMs) * unitMs;

/** A time as buckets and every other timestamp are stored: UTC ISO-8601 with milliseconds. */
export const stamp = (ms: number): string => new Date(ms).toISOString();

/** A time as Flipt's analytics API writes it: RFC 3339 UTC without fractional seconds. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Buckets of one table with `from <= bucket < to`, as stored text. */
export interface BucketRange {
  table: typeof MINUTES_TABLE | typeof HOURS_TABLE;
  from: string;
  to: string;
}

/**
 * The rows that hold every minute from `from`'s to `to`'s (both included), read from as few rows
 * as possible: the whole hours inside from the hour table, the minutes before the first and after
 * the last whole hour from the minute table. Minutes older than the minute retention are gone, so
 * a window's partial first hour may count less than it did; whole hours are exact for months.
 */
export function windowRanges(from: Date, to: Date): BucketRange[] {
  const first = floorTo(from.getTime(), MINUTE_MS);
  const end = floorTo(to.getTime(), MINUTE_MS) + MINUTE_MS;
  if (end <= first) return [];
  const minutes = (a: number, b: number): BucketRange => ({ table: MINUTES_TABLE, from: stamp(a), to: stamp(b) });
  const firstHour = Math.ceil(first / HOUR_MS) * HOUR_MS;
  const endHour = floorTo(end, HOUR_MS);
  if (firstHour >= endHour) return [minutes(first, end)];
  return [
    ...(first < firstHour ? [minutes(first, firstHour)] : []),
    { table: HOURS_TABLE, from: stamp(firstHour), to: stamp(endHour) },
    ...(endHour < end ? [minutes(endHour, end)] : []),
  ];
}
