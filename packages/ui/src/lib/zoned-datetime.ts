/**
 * Converts between the wall-clock value of `<input type="datetime-local">` (`2026-11-23T10:00`)
 * in a chosen IANA time zone and the RFC 3339 UTC instant a date-time constraint stores
 * (`2026-11-23T09:00:00Z`), without depending on the time zone of the machine running it.
 */

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of `instant` in `timeZone`: year, month (1–12), day, hour (0–23), minute, second. */
export function wallFields(instant: number, timeZone: string): [number, number, number, number, number, number] {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  // Some runtimes write midnight as 24 even with h23; it is 0.
  return [get('year'), get('month'), get('day'), get('hour') % 24, get('minute'), get('second')];
}

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const [y, mo, d, h, mi, s] = wallFields(instant, timeZone);
  const whole = Math.floor(instant / 1000) * 1000;
  return Date.UTC(y, mo - 1, d, h, mi, s) - whole;
}

/** `n` with leading zeros to `width` digits. */
export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Whether `timeZone` is one this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * `2026-11-23T10:00` read in `timeZone` as RFC 3339 UTC (`2026-11-23T09:00:00Z` for Europe/Berlin);
 * undefined for an empty or malformed input. A wall time skipped by a daylight-saving change
 * resolves to the instant an hour later.
 */
export function wallTimeToUtc(wall: string, timeZone: string): string | undefined {
  const match = WALL.exec(wall);
  if (match === null) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1, 7).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(asUtc)) return undefined;
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  return new Date(second).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A stored date-time value (RFC 3339 with any offset, or a `YYYY-MM-DD` date meaning midnight
 * UTC) as the wall-clock value of a datetime-local input in `timeZone`; seconds only when set.
 * Undefined when the value is not a date-time.
 */
export function utcToWallTime(value: string, timeZone: string): string | undefined {
  const trimmed = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(trimmed)) return undefined;
  const instant = Date.parse(trimmed.replace(',', '.'));
  if (Number.isNaN(instant)) return undefined;
  const [y, mo, d, h, mi, s] = wallFields(instant, timeZone);
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}${s === 0 ? '' : `:${pad(s)}`}`;
}
