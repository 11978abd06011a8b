/** Constraint value checks: datetime normalisation and the JSON lists of isoneof/isnotoneof. */
import type { ComparisonType } from '../enums.js';
import { invalid } from '../errors.js';

/** Most items an isoneof/isnotoneof list may hold. */
export const MAX_LIST_ITEMS = 100;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,]\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = m === 2 && isLeap(y) ? 29 : (DAYS[m - 1] ?? 0);
  return d <= days;
}

/**
 * An RFC 3339 value rewritten in UTC without fractional seconds, or a `YYYY-MM-DD` date kept as
 * sent. COMPAT(flipt): mirrors Go's time.Parse with RFC3339 then DateOnly.
 */
export function normaliseDateTime(value: string): string {
  const nums = (parts: (string | undefined)[]) => parts.map((p) => Number(p ?? 0));
  const full = RFC3339.exec(value);
  if (full) {
    const [y, mo, d, h, mi, s, oh, om] = nums([...full.slice(1, 7), full[8], full[9]]) as [
      number, number, number, number, number, number, number, number,
    ];
    if (isDate(y, mo, d) && h < 24 && mi < 60 && s < 60 && oh < 24 && om < 60) {
      const sign = full[7] === '-' ? -1 : 1;
      const at = new Date(0);
      at.setUTCFullYear(y, mo - 1, d);
      at.setUTCHours(h, mi, s, 0);
      const utc = new Date(at.getTime() - sign * (oh * 60 + om) * 60_000);
      return utc.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
  }
  const date = DATE_ONLY.exec(value);
  if (date) {
    const [y, mo, d] = nums(date.slice(1, 4)) as [number, number, number];
    if (isDate(y, mo, d)) return value;
  }
  throw invalid(`parsing datetime from ${JSON.stringify(value)}`);
}

const LIST_TYPES: Readonly<Partial<Record<ComparisonType, { name: string; item: 'string' | 'number' }>>> = {
  STRING_COMPARISON_TYPE: { name: 'string', item: 'string' },
  NUMBER_COMPARISON_TYPE: { name: 'number', item: 'number' },
  ENTITY_ID_COMPARISON_TYPE: { name: 'entityId', item: 'string' },
};

/**
 * Checks the value of an isoneof/isnotoneof constraint: a JSON array of strings (STRING,
 * ENTITY_ID) or numbers (NUMBER) with at most 100 items. Other types are not checked here.
 */
export function checkListValue(type: ComparisonType, value: string, property: string): void {
  const spec = LIST_TYPES[type];
  if (spec === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === spec.item)) {
    throw invalid(`invalid value provided for property ${JSON.stringify(property)} of type ${spec.name}`);
  }
  if (parsed.length > MAX_LIST_ITEMS) {
    throw invalid(
      `too many values provided for property ${JSON.stringify(property)} of type ${spec.name} (maximum ${MAX_LIST_ITEMS})`,
    );
  }
}
