/**
 * Absolute times as the UI shows them, in a zone chosen by the user (see time-preference.ts) and
 * named after it: `2026-05-10 07:57 EDT`, `2026-05-10 11:57:31 UTC`, `May 10, 2026, 7:57 AM EDT`.
 * Everything takes the zone explicitly, so the output never depends on the machine running it.
 */
import { pad, wallFields } from './zoned-datetime.js';

const cache = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale, zone and options: building them is the slow part. */
function formatter(locale: string | undefined, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${timeZone}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    cache.set(key, found);
  }
  return found;
}

/** The instant `at` stands for, in milliseconds; NaN for text that is no time. */
function instantOf(at: string | number | Date): number {
  if (at instanceof Date) return at.getTime();
  if (typeof at === 'number') return at;
  return Date.parse(at);
}

const zoneNameIn = (locale: string, instant: number, timeZone: string): string =>
  formatter(locale, timeZone, { timeZoneName: 'short' })
    .formatToParts(new Date(instant))
    .find((p) => p.type === 'timeZoneName')?.value ?? '';

/**
 * The short name of `timeZone` at `instant`, as people in English write it: `UTC`, `EST`/`EDT`,
 * `CET`/`CEST`, `BST`; an offset (`GMT+9`, `GMT+5:30`) for a zone without a common abbreviation.
 */
export function zoneAbbreviation(instant: number, timeZone: string): string {
  // American English names the American zones, British English the European ones; both say `GMT+2` for the rest.
  const american = zoneNameIn('en-US', instant, timeZone);
  if (/^[A-Z]{2,5}$/.test(american)) return american;
  const british = zoneNameIn('en-GB', instant, timeZone);
  if (/^[A-Z]{2,5}$/.test(british)) return british;
  return american || timeZone;
}

/**
 * `at` in `timeZone` to the minute (`2026-05-10 07:57 EDT`), or to the second with `seconds`
 * (`2026-05-10 07:57:31 EDT`). Text that is no time comes back as it is.
 */
export function formatInstant(at: string | number | Date, timeZone: string, options: { seconds?: boolean } = {}): string {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return typeof at === 'string' ? at : '';
  const [year, month, day, hour, minute, second] = wallFields(instant, timeZone);
  const time = options.seconds === true ? `${pad(hour)}:${pad(minute)}:${pad(second)}` : `${pad(hour)}:${pad(minute)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${time} ${zoneAbbreviation(instant, timeZone)}`;
}

/**
 * `at` in `timeZone` as a person reads a date in `locale` (the browser's when undefined), with the
 * zone named: `May 10, 2026, 7:57 AM EDT`. Text that is no time comes back as it is.
 */
export function formatReadable(at: string | number | Date, timeZone: string, locale?: string): string {
  const instant = instantOf(at);
  if (Number.isNaN(instant)) return typeof at === 'string' ? at : '';
  return `${formatter(locale, timeZone, { dateStyle: 'medium', timeStyle: 'short' }).format(instant)} ${zoneAbbreviation(instant, timeZone)}`;
}
