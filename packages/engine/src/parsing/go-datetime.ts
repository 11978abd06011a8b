/**
 * Flipt's datetime parsing: Go `time.Parse(time.RFC3339, v)`, else `time.Parse(time.DateOnly, v)`.
 * Go's RFC 3339 parsing accepts a 1- or 2-digit hour, a fractional second after `.` or `,` (digits
 * past the ninth ignored), `Z` or a `±hh:mm` offset (hours ≤ 24, minutes ≤ 60); the date-only form
 * is `YYYY-MM-DD` at midnight UTC. Instants are kept as epoch milliseconds plus the nanoseconds
 * within the millisecond, so comparisons are exact to the nanosecond as in Go.
 */

/** A parsed instant. */
export interface Instant {
  readonly ms: number;
  readonly subMs: number;
}

let parsedSubMs = 0;

/** Parses at compile time; `undefined` when Go would fail. */
export function parseInstant(s: string): Instant | undefined {
  const ms = parseEpochMs(s);
  return Number.isNaN(ms) ? undefined : { ms, subMs: parsedSubMs };
}

/**
 * Compares `s` with an instant without allocating: negative if before, 0 if equal, positive if after,
 * NaN if `s` does not parse.
 */
export function compareInstant(s: string, ms: number, subMs: number): number {
  const own = parseEpochMs(s);
  if (Number.isNaN(own)) return NaN;
  const d = own - ms;
  return d !== 0 ? d : parsedSubMs - subMs;
}

/** Epoch milliseconds of `s` (NaN if it does not parse); the sub-millisecond part goes to `parsedSubMs`. */
function parseEpochMs(s: string): number {
  parsedSubMs = 0;
  const n = s.length;
  if (n < 10) return NaN;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d) {
    return NaN;
  }
  if (day > daysInMonth(year, month)) return NaN;
  const midnight = daysFromCivil(year, month, day) * 86_400_000;
  if (n === 10) return midnight;
  if (s.charCodeAt(10) !== 0x54) return NaN;

  let i = 11;
  const hourDigits = isDigit(s, i + 1) ? 2 : 1;
  const hour = digits(s, i, hourDigits);
  i += hourDigits;
  if (hour < 0 || hour > 23 || s.charCodeAt(i) !== 0x3a) return NaN;
  const minute = digits(s, i + 1, 2);
  if (minute < 0 || minute > 59 || s.charCodeAt(i + 3) !== 0x3a) return NaN;
  const second = digits(s, i + 4, 2);
  if (second < 0 || second > 59) return NaN;
  i += 6;

  let nanos = 0;
  const sep = s.charCodeAt(i);
  if ((sep === 0x2e || sep === 0x2c) && isDigit(s, i + 1)) {
    let j = i + 1;
    let scale = 100_000_000;
    while (isDigit(s, j)) {
      nanos += (s.charCodeAt(j) - 0x30) * scale;
      scale = scale >= 10 ? scale / 10 : 0;
      j++;
    }
    i = j;
  }

  let offsetMinutes = 0;
  if (s.charCodeAt(i) === 0x5a && i + 1 === n) {
    offsetMinutes = 0;
  } else {
    const sign = s.charCodeAt(i);
    if (i + 6 !== n || (sign !== 0x2b && sign !== 0x2d) || s.charCodeAt(i + 3) !== 0x3a) return NaN;
    const oh = digits(s, i + 1, 2);
    const om = digits(s, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 24 || om > 60) return NaN;
    offsetMinutes = (sign === 0x2d ? -1 : 1) * (oh * 60 + om);
  }

  const ms = Math.floor(nanos / 1_000_000);
  parsedSubMs = nanos - ms * 1_000_000;
  return midnight + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + ms;
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** The value of `count` decimal digits at `at`, or -1 if any is not a digit. */
function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const c = s.charCodeAt(i);
    if (!(c >= 0x30 && c <= 0x39)) return -1;
    v = v * 10 + (c - 0x30);
  }
  return v;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
