/** How the analytics and usage routes read times, windows and steps. */
import { emptyField, type Fields, invalidField } from '@ensign/core';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** COMPAT(flipt): the analytics API also takes `YYYY-MM-DD HH:MM:SS`, read as UTC. */
const PLAIN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})()()$/;

/** Minutes east of UTC of an RFC 3339 offset. */
function offsetMinutes(zone: string): number {
  if (zone === '' || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
}

/** Epoch milliseconds of an RFC 3339 or `YYYY-MM-DD HH:MM:SS` time; undefined for anything else, a 31st of February included. */
export function parseTime(text: string): number | undefined {
  const match = RFC3339.exec(text) ?? PLAIN.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = match[7] === undefined || match[7] === '' ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  return utc + fraction - offsetMinutes(match[8] ?? '') * 60_000;
}

/** The time sent as `field`, `fallback` when it was not sent (no fallback: it must be sent). */
export function readTime(query: Fields, field: string, fallback?: number): number {
  const sent = query[field];
  const text = typeof sent === 'string' ? sent : '';
  if (text === '') {
    if (fallback === undefined) throw emptyField(field);
    return fallback;
  }
  const ms = parseTime(text);
  if (ms === undefined) throw invalidField(field, `must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not ${JSON.stringify(text)}`);
  return ms;
}

const HOUR_MS = 3_600_000;

/** COMPAT(flipt): the series' step for a range, in minutes (`getStepFromDuration`). */
export function stepMinutes(rangeMs: number): number {
  if (rangeMs >= 24 * HOUR_MS) return 30;
  if (rangeMs >= 12 * HOUR_MS) return 15;
  if (rangeMs >= 4 * HOUR_MS) return 5;
  return 1;
}
