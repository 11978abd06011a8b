/** Value kinds of the configuration schema: each one reads, checks and prints a single setting. */
import { formatDuration, parseGoDuration } from './duration.js';

/** The outcome of reading one raw value (from YAML or from an environment string). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** How one configuration value is read, checked and shown in the reference. */
export interface Kind<T> {
  /** Type name shown in the reference (`integer`, `duration`, `debug|info|…`). */
  readonly type: string;
  parse(raw: unknown): Parsed<T>;
  format(value: T): string;
  /** Hides secrets when the raw value is echoed in an error message. */
  redact?(raw: string): string;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

const INTEGER_TEXT = /^[+-]?\d+$/;

const toInteger = (raw: unknown): number | undefined => {
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : undefined;
  if (typeof raw === 'string' && INTEGER_TEXT.test(raw.trim())) return Number(raw.trim());
  return undefined;
};

/** A whole number within `[min, max]`; YAML numbers and numeric strings (environment) both count. */
export function integer(min: number, max?: number): Kind<number> {
  const reason =
    max !== undefined
      ? `must be an integer between ${min} and ${max}`
      : min === 0
        ? 'must be a non-negative integer'
        : `must be an integer of at least ${min}`;
  return {
    type: 'integer',
    parse(raw) {
      const value = toInteger(raw);
      if (value === undefined || !Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
        return fail(reason);
      }
      return ok(value);
    },
    format: String,
  };
}

/** A TCP port. */
export const port = (): Kind<number> => integer(1, 65535);

/** One of a fixed set of words; `ignoreCase` accepts Flipt's upper-case spellings (`INFO`). */
export function oneOf<const V extends string>(values: readonly V[], options: { ignoreCase?: boolean } = {}): Kind<V> {
  const reason = `must be one of ${values.join(', ')}`;
  return {
    type: values.join('|'),
    parse(raw) {
      if (typeof raw !== 'string') return fail(reason);
      const text = options.ignoreCase ? raw.trim().toLowerCase() : raw.trim();
      const found = values.find((v) => v === text);
      return found === undefined ? fail(reason) : ok(found);
    },
    format: String,
  };
}

/**
 * A duration in milliseconds: a Go-style string (`30s`, `1h30m`) or a whole number of milliseconds;
 * `min` (milliseconds) refuses shorter ones.
 */
export function duration(options: { min?: number } = {}): Kind<number> {
  const reason = 'must be a duration such as 30s, 5m or 1h30m, or a whole number of milliseconds';
  const min = options.min ?? 0;
  const atLeastMin = (ms: number): Parsed<number> => (ms >= min ? ok(ms) : fail(min > 0 ? `must be at least ${formatDuration(min)}` : reason));
  return {
    type: 'duration',
    parse(raw) {
      const asInteger = toInteger(raw);
      if (asInteger !== undefined) return asInteger >= 0 ? atLeastMin(asInteger) : fail(reason);
      if (typeof raw !== 'string') return fail(reason);
      const ms = parseGoDuration(raw);
      return ms === undefined ? fail(reason) : atLeastMin(Math.round(ms));
    },
    format: formatDuration,
  };
}

const TRUE_TEXT = new Set(['true', '1']);
const FALSE_TEXT = new Set(['false', '0']);

/** A switch: YAML `true`/`false`, or (from the environment) `true`, `false`, `1`, `0`. */
export function boolean(): Kind<boolean> {
  const reason = 'must be true or false';
  return {
    type: 'boolean',
    parse(raw) {
      if (typeof raw === 'boolean') return ok(raw);
      if (raw === 0 || raw === 1) return ok(raw === 1);
      if (typeof raw !== 'string') return fail(reason);
      const text = raw.trim().toLowerCase();
      if (TRUE_TEXT.has(text)) return ok(true);
      if (FALSE_TEXT.has(text)) return ok(false);
      return fail(reason);
    },
    format: String,
  };
}

/** A switch that may be left unset, where unset and false mean different things; `unset` in the reference. */
export function optionalBoolean(): Kind<boolean | undefined> {
  const inner = boolean();
  return { type: 'boolean', parse: (raw) => inner.parse(raw), format: (value) => (value === undefined ? 'unset' : String(value)) };
}

/**
 * A non-empty string (or, with `allowEmpty`, possibly empty to switch a feature off), optionally
 * checked further by `check` (which throws an Error naming the problem).
 */
export function text(options: { check?: (value: string) => void; redact?: (raw: string) => string; allowEmpty?: boolean } = {}): Kind<string> {
  return {
    type: 'string',
    parse(raw) {
      if (options.allowEmpty && typeof raw === 'string' && raw.trim() === '') return ok('');
      if (typeof raw !== 'string' || raw.trim() === '') return fail('must be a non-empty string');
      const value = raw.trim();
      if (options.check) {
        try {
          options.check(value);
        } catch (err) {
          return fail(err instanceof Error ? err.message : String(err));
        }
      }
      return ok(value);
    },
    format: (value) => (value === '' ? '""' : value),
    ...(options.redact ? { redact: options.redact } : {}),
  };
}

/** Replaces the password of a `scheme://user:password@host` URL so it never reaches a terminal or log. */
export const redactUrlPassword = (raw: string): string => raw.replace(/(\/\/[^/:@]*:)[^/@]*@/, '$1***@');

/**
 * A secret string (possibly empty = not set), never echoed in an error message; a YAML number is
 * taken as its digits, so a numeric secret is not refused with its value in the message.
 */
export function secret(): Kind<string> {
  const inner = text({ allowEmpty: true, redact: () => '***' });
  return { ...inner, parse: (raw) => inner.parse(typeof raw === 'number' ? String(raw) : raw) };
}

/**
 * A list of strings: a YAML sequence, or (from the environment) a comma-separated string; items
 * are trimmed and empty ones dropped.
 */
export function stringList(): Kind<string[]> {
  const reason = 'must be a list of strings (comma-separated in the environment)';
  return {
    type: 'list',
    parse(raw) {
      const items = typeof raw === 'string' ? raw.split(',') : raw;
      if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) return fail(reason);
      return ok(items.map((item) => item.trim()).filter((item) => item !== ''));
    },
    format: (value) => `[${value.join(', ')}]`,
  };
}

/** Reads a mapping: a YAML mapping, or (from the environment) a JSON object. */
export function readMapping(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A mapping of names to string lists (GitHub's `allowed_teams`: organization → team slugs). */
export function listMapping(): Kind<Record<string, string[]>> {
  const reason = 'must be a mapping of names to lists of strings (a JSON object in the environment)';
  const list = stringList();
  return {
    type: 'mapping',
    parse(raw) {
      const mapping = readMapping(raw);
      if (mapping === undefined) return fail(reason);
      const out: Record<string, string[]> = {};
      for (const [name, items] of Object.entries(mapping)) {
        const parsed = Array.isArray(items) ? list.parse(items) : fail<string[]>(reason);
        if (!parsed.ok) return fail(`${name}: ${reason}`);
        out[name] = parsed.value;
      }
      return ok(out);
    },
    format: (value) => (Object.keys(value).length === 0 ? '{}' : JSON.stringify(value)),
  };
}

/** A fraction from 0 to 1 (a sampling ratio): a YAML number or its text. */
export function ratio(): Kind<number> {
  const reason = 'must be a number from 0 to 1';
  return {
    type: 'number 0–1',
    parse(raw) {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      return Number.isFinite(n) && n >= 0 && n <= 1 ? ok(n) : fail(reason);
    },
    format: String,
  };
}

/** A mapping of names to strings (headers): a YAML mapping, or (from the environment) a JSON object. */
export function stringMapping(): Kind<Record<string, string>> {
  const reason = 'must be a mapping of names to strings (a JSON object in the environment)';
  return {
    type: 'mapping',
    parse(raw) {
      const mapping = readMapping(raw);
      if (mapping === undefined || !Object.values(mapping).every((v) => typeof v === 'string')) return fail(reason);
      return ok(mapping as Record<string, string>);
    },
    format: (value) => (Object.keys(value).length === 0 ? '{}' : Object.keys(value).join(', ')),
    // Headers carry credentials (an API key for the collector): an error never echoes the value.
    redact: () => '***',
  };
}

/**
 * A list of items each read by `item` (given its `[i]` position for messages); from the
 * environment, a JSON array. `shape` says what the list holds, for the message of anything else.
 */
export function listOf<T>(shape: string, item: (at: string, raw: unknown) => Parsed<T>, format: (value: T[]) => string): Kind<T[]> {
  const refused = fail<T[]>(`must be ${shape} (a JSON array in the environment)`);
  return {
    type: 'list',
    parse(raw) {
      let items = raw;
      if (typeof raw === 'string') {
        try {
          items = raw.trim() === '' ? [] : JSON.parse(raw);
        } catch {
          return refused;
        }
      }
      if (!Array.isArray(items)) return refused;
      const out: T[] = [];
      for (const [i, value] of items.entries()) {
        const parsed = item(`[${i}]`, value);
        if (!parsed.ok) return parsed;
        out.push(parsed.value);
      }
      return ok(out);
    },
    format,
  };
}
