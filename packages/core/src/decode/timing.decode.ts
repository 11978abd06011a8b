/**
 * Readers for the time-bound parts of flags, rules and rollouts (Ensign's extension of Flipt's
 * API): RFC 3339 times, validity windows, ramps and prerequisites.
 */
import { invalidField } from '../errors.js';
import type { WindowInput } from '../requests.js';
import type { Prerequisite, RampStep } from '../resources.js';
import { type Fields, isFields, lookup, readString } from './fields.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** `value` (RFC 3339) as the store writes times (UTC ISO-8601), or undefined when it is not such a time. */
export function parseTime(value: string): string | undefined {
  const ms = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** `value` (RFC 3339) rewritten as the store writes times (UTC ISO-8601); throws naming `label`. */
export function normaliseTime(value: string, label: string): string {
  const time = parseTime(value);
  if (time === undefined) throw invalidField(label, `must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not ${JSON.stringify(value.slice(0, 64))}`);
  return time;
}

/** An RFC 3339 time field in UTC, or undefined when not sent. */
export function readTime(src: Fields, name: string, label = name): string | undefined {
  const value = readString(src, name, label);
  return value === '' ? undefined : normaliseTime(value, label);
}

/** A time field that may be cleared: undefined when not sent, `""` when sent empty. */
function readClearableTime(src: Fields, name: string): string | undefined {
  const raw = lookup(src, name);
  if (raw === undefined) return undefined;
  const value = readString(src, name);
  return value === '' ? '' : normaliseTime(value, name);
}

/** `validFrom` and `validUntil` of a rule or rollout body, each only when sent. */
export function readWindow(src: Fields): WindowInput {
  const validFrom = readClearableTime(src, 'validFrom');
  const validUntil = readClearableTime(src, 'validUntil');
  return { ...(validFrom === undefined ? {} : { validFrom }), ...(validUntil === undefined ? {} : { validUntil }) };
}

/** A ramp (`[{at, percentage}]`) under `name`, labelled `label` in errors; undefined when not sent. */
export function readRamp(src: Fields, name: string, label: string): RampStep[] | undefined {
  const raw = lookup(src, name);
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw invalidField(label, 'must be an array of {at, percentage}');
  return raw.map((step: unknown, i): RampStep => {
    const field = `${label}[${i}]`;
    if (!isFields(step)) throw invalidField(field, 'must be an object {at, percentage}');
    const at = readTime(step, 'at', `${field}.at`);
    if (at === undefined) throw invalidField(`${field}.at`, 'must not be empty');
    const percentage = lookup(step, 'percentage');
    if (typeof percentage !== 'number' || !Number.isFinite(percentage)) throw invalidField(`${field}.percentage`, 'must be a number');
    return { at, percentage };
  });
}

/** A flag's `prerequisites`; undefined when not sent. */
export function readPrerequisites(src: Fields): Prerequisite[] | undefined {
  const raw = lookup(src, 'prerequisites');
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw invalidField('prerequisites', 'must be an array of {flagKey, enabled} or {flagKey, variants}');
  return raw.map((item: unknown, i): Prerequisite => {
    const field = `prerequisites[${i}]`;
    if (!isFields(item)) throw invalidField(field, 'must be an object {flagKey, enabled} or {flagKey, variants}');
    if (lookup(item, 'namespaceKey') !== undefined) throw invalidField(`${field}.namespaceKey`, 'a prerequisite is a flag of the same namespace; prerequisites across namespaces are not supported');
    const flagKey = readString(item, 'flagKey', `${field}.flagKey`);
    const enabled = lookup(item, 'enabled');
    const variants = lookup(item, 'variants');
    if (enabled !== undefined && variants !== undefined) throw invalidField(field, 'takes either enabled or variants, not both');
    if (enabled !== undefined) {
      if (typeof enabled !== 'boolean') throw invalidField(`${field}.enabled`, 'must be a boolean');
      return { flagKey, enabled };
    }
    if (variants === undefined) throw invalidField(field, 'needs enabled (true or false) or variants (a list of variant keys)');
    if (!Array.isArray(variants) || variants.length === 0 || !variants.every((v) => typeof v === 'string' && v !== '')) {
      throw invalidField(`${field}.variants`, 'must be a non-empty array of variant keys');
    }
    return { flagKey, variants: [...new Set(variants as string[])] };
  });
}
