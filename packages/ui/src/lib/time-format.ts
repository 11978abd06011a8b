/**
 * Absolute times as the UI shows them, in a zone chosen by the user (see time-preference.ts) and
 * named after it: `2026-05-10 07:57 EDT`, `2026-05-10 11:57:31 UTC`, `May 10, 2026, 7:57 AM EDT`.
 * Everything takes the zone explicitly, so the output never depends on the machine running it.
 */

type Fields = { year: string; month: string; day: string; hour: string; minute: string; second: string };

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

const NUMERIC: Intl.DateTimeFormatOptions = { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' };

function fieldsOf(instant: number, timeZone: string): Fields {
  const parts = formatter('en-US', timeZone, NUMERIC).formatToParts(new Date(instant));
  const get = (type: keyof Fields): string => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
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
  const f = fieldsOf(instant, timeZone);
  // Some runtimes write midnight as 24 with h23; it is 00.
  const hour = f.hour === '24' ? '00' : f.hour;
  const time = options.seconds === true ? `${hour}:${f.minute}:${f.second}` : `${hour}:${f.minute}`;
  return `${f.year}-${f.month}-${f.day} ${time} ${zoneAbbreviation(instant, timeZone)}`;
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
