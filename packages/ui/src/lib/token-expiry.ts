/**
 * When a new API token expires: a day picked in the browser's time zone (the token works until
 * the end of that day) or never, and the quick choices that pick a day for the user.
 */

/** The quick choices of the create dialog; `days: undefined` is "never". */
export const EXPIRY_CHOICES: ReadonlyArray<{ label: string; days: number | undefined }> = [
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: 'Never', days: undefined },
];

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of `date` in the local time zone (the value of an `<input type="date">`). */
export function localDay(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local day `days` days after `now`. */
export function dayAfter(now: Date, days: number): string {
  const later = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 12);
  return localDay(later);
}

/** The last millisecond of the local day `day` (`YYYY-MM-DD`), or undefined when it is no date. */
export function endOfDay(day: string): Date | undefined {
  const match = /^(\d{4,6})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (match === null) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(2000, month - 1, date, 23, 59, 59, 999);
  end.setFullYear(year);
  // Reject days that roll over (2030-02-31 would become March 3rd).
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== date) return undefined;
  return end;
}

/** What the form sends as `expiresAt`, or why the picked day cannot be sent. */
export type ExpiryChoice = { ok: true; expiresAt: string | undefined } | { ok: false; error: string };

/** The `expiresAt` (RFC 3339) for a picked day; an empty day means the token never expires. */
export function expiryOf(day: string, now: Date): ExpiryChoice {
  if (day.trim() === '') return { ok: true, expiresAt: undefined };
  const end = endOfDay(day);
  if (end === undefined) return { ok: false, error: 'Enter a date such as 2030-01-31, or choose Never' };
  if (end.getTime() <= now.getTime()) return { ok: false, error: 'Pick a day that has not passed yet' };
  return { ok: true, expiresAt: end.toISOString() };
}

/** The label of the quick choice that picks `day` today ("Never" for no day), or undefined for a day of the user's own. */
export function choiceOf(day: string, now: Date): string | undefined {
  if (day.trim() === '') return EXPIRY_CHOICES.find((c) => c.days === undefined)?.label;
  return EXPIRY_CHOICES.find((c) => c.days !== undefined && dayAfter(now, c.days) === day)?.label;
}
