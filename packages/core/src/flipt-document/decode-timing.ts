/**
 * Ensign's extension of the document, read and checked as the management API checks the same
 * fields: times (RFC 3339, kept in UTC), rule and rollout windows (`valid_from`, `valid_until`),
 * threshold ramps, a flag's `prerequisites` and `schedules`. Each is absent from the result when
 * the document does not set it, so Flipt's documents decode as before.
 */
import { parseTime } from '../decode/timing.decode.js';
import type { Prerequisite, RampStep, ValidityWindow } from '../resources.js';
import { checkKey } from './decode-names.js';
import { eachObject, has, readAny, readFlag, readList, readNumber, readText, type DocumentObject, type Place } from './document-fields.js';
import type { DocumentSchedule } from './document-types.js';

/** A time field in UTC ISO-8601; undefined when absent. A YAML reader that types timestamps hands over a Date. */
function readTime(obj: DocumentObject, name: string, at: Place): string | undefined {
  const value = readAny(obj, name);
  if (value === undefined) return undefined;
  const time = value instanceof Date ? (Number.isNaN(value.getTime()) ? undefined : value.toISOString()) : typeof value === 'string' ? parseTime(value) : undefined;
  return time ?? at.field(name).fail('must be an RFC 3339 time such as 2026-01-31T12:00:00Z');
}

const requireTime = (obj: DocumentObject, name: string, at: Place): string => readTime(obj, name, at) ?? at.field(name).fail('must not be empty');

/** `valid_from` (inclusive) and `valid_until` (exclusive) of a rule or rollout: only the bounds set. */
export function decodeWindow(obj: DocumentObject, at: Place): ValidityWindow {
  const validFrom = readTime(obj, 'valid_from', at);
  const validUntil = readTime(obj, 'valid_until', at);
  if (validFrom !== undefined && validUntil !== undefined && validFrom >= validUntil) {
    at.field('valid_until').fail(`must be later than valid_from (${validFrom})`);
  }
  return { ...(validFrom === undefined ? {} : { validFrom }), ...(validUntil === undefined ? {} : { validUntil }) };
}

/**
 * A threshold's `ramp` (`[{at, percentage}]`): strictly later times, percentages rising from the
 * threshold's own to at most 100; undefined when absent or empty.
 */
export function decodeRamp(threshold: DocumentObject, at: Place, percentage: number): RampStep[] | undefined {
  let previous = percentage;
  let previousAt = '';
  const steps = eachObject(readList(threshold, 'ramp', at), at.field('ramp')).map(({ obj, at: stepAt }, i): RampStep => {
    const stepTime = requireTime(obj, 'at', stepAt);
    const value = readNumber(obj, 'percentage', stepAt) ?? stepAt.field('percentage').fail('must not be empty');
    if (value > 100) stepAt.field('percentage').fail('must be at most 100');
    if (value <= previous) stepAt.field('percentage').fail(`must rise: ${value} is not above ${previous}${i === 0 ? ' (the threshold\'s percentage)' : ''}`);
    if (stepTime <= previousAt) stepAt.field('at').fail(`must be later than the step before (${previousAt})`);
    previous = value;
    previousAt = stepTime;
    return { at: stepTime, percentage: value };
  });
  return steps.length === 0 ? undefined : steps;
}

/** The variant keys of a prerequisite: at least one, each a text, duplicates folded in order. */
function variantKeys(item: DocumentObject, at: Place): string[] {
  const listAt = at.field('variants');
  const items = readList(item, 'variants', at);
  if (items.length === 0) listAt.fail('must name at least one variant');
  return [...new Set(items.map((v, k) => (typeof v === 'string' && v !== '' ? v : listAt.item(k).fail('must be a variant key'))))];
}

/**
 * A flag's `prerequisites` (`[{flag, enabled}]` or `[{flag, variants}]`), each parent named once
 * and never the flag itself; undefined when absent or empty. Whether the parents exist, have
 * those variants and close no cycle is checked against the namespace (prerequisite-references.ts).
 */
export function decodePrerequisites(obj: DocumentObject, at: Place, flagKey: string): Prerequisite[] | undefined {
  const seen = new Map<string, number>();
  const prerequisites = eachObject(readList(obj, 'prerequisites', at), at.field('prerequisites')).map(({ obj: item, at: itemAt }, i): Prerequisite => {
    if (has(item, 'namespace')) itemAt.field('namespace').fail('a prerequisite is a flag of the same namespace; prerequisites across namespaces are not supported');
    const flagAt = itemAt.field('flag');
    const parent = checkKey(readText(item, 'flag', itemAt), flagAt);
    if (parent === flagKey) flagAt.fail(`a flag cannot require itself (${flagKey} → ${flagKey})`);
    const earlier = seen.get(parent);
    if (earlier !== undefined) flagAt.fail(`flag ${JSON.stringify(parent)} is also required at [${earlier}]`);
    seen.set(parent, i);
    const hasEnabled = has(item, 'enabled');
    if (hasEnabled && has(item, 'variants')) itemAt.fail('takes either enabled or variants, not both');
    if (hasEnabled) return { flagKey: parent, enabled: readFlag(item, 'enabled', itemAt) };
    if (!has(item, 'variants')) itemAt.fail('needs enabled (true or false) or variants (a list of variant keys)');
    return { flagKey: parent, variants: variantKeys(item, itemAt) };
  });
  return prerequisites.length === 0 ? undefined : prerequisites;
}

/**
 * A flag's `schedules` (`[{at, enabled}]`), by time; two at the same time keep their order (the
 * later one is what stays in effect). Undefined when absent or empty.
 */
export function decodeSchedules(obj: DocumentObject, at: Place): DocumentSchedule[] | undefined {
  const schedules = eachObject(readList(obj, 'schedules', at), at.field('schedules')).map(({ obj: item, at: itemAt }): DocumentSchedule => {
    const time = requireTime(item, 'at', itemAt);
    if (!has(item, 'enabled')) itemAt.field('enabled').fail('must be true or false');
    return { at: time, enabled: readFlag(item, 'enabled', itemAt) };
  });
  return schedules.length === 0 ? undefined : schedules.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
