/**
 * Structural validation of a snapshot document: exactly what compilation relies on, nothing more
 * (names, descriptions and creation times are not read). Stored values that merely fail to parse are
 * not structural problems: they compile to constraints that never match, as Flipt evaluates them.
 * The times of schedules, windows and ramps are: evaluation turns on them.
 */
import { timestampMs } from './parsing/timestamp.js';
import type { SnapshotProblem } from './snapshot-invalid.error.js';

/** Problems are capped so that a huge broken document yields a readable error quickly. */
const MAX_PROBLEMS = 50;

const FLAG_TYPES = ['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE'];
const MATCH_TYPES = ['ALL_SEGMENT_MATCH_TYPE', 'ANY_SEGMENT_MATCH_TYPE'];
const SEGMENT_OPERATORS = ['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR'];
const ROLLOUT_TYPES = ['UNKNOWN_ROLLOUT_TYPE', 'SEGMENT_ROLLOUT_TYPE', 'THRESHOLD_ROLLOUT_TYPE'];
const COMPARISON_TYPES = [
  'UNKNOWN_CONSTRAINT_COMPARISON_TYPE',
  'STRING_CONSTRAINT_COMPARISON_TYPE',
  'NUMBER_CONSTRAINT_COMPARISON_TYPE',
  'BOOLEAN_CONSTRAINT_COMPARISON_TYPE',
  'DATETIME_CONSTRAINT_COMPARISON_TYPE',
  'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE',
];

type Obj = Record<string, unknown>;

/** Lists the structural problems of a document (empty when it compiles). */
export function validateSnapshot(doc: unknown): SnapshotProblem[] {
  const problems: SnapshotProblem[] = [];
  const report = (path: string, message: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push({ path, message });
  };
  const v = new Validator(report);
  const root = v.object(doc, '$');
  if (root === undefined) return problems;
  const ns = v.object(root['namespace'], '$.namespace');
  if (ns !== undefined) v.string(ns, 'key', '$.namespace');
  const flags = v.array(root['flags'], '$.flags');
  const seen = new Set<string>();
  flags?.forEach((flag, i) => seenOnce(v.flag(flag, `$.flags[${i}]`), i, seen, report));
  return problems;
}

/**
 * Checks flags of a document one at a time, as `validateSnapshot` does the whole document: the
 * same problems, paths and cap, and duplicate keys found across every flag checked so far.
 */
export class FlagChecks {
  private readonly seen = new Set<string>();
  private readonly validator = new Validator((path, message) => {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ path, message });
  });

  /** Starts with the problems found outside the flags (`validateSnapshot` of the document without them). */
  constructor(readonly problems: SnapshotProblem[] = []) {}

  /** The flag at `index` of the document's flags. */
  check(flag: unknown, index: number): void {
    seenOnce(this.validator.flag(flag, `$.flags[${index}]`), index, this.seen, (path, message) => this.report(path, message));
  }

  /** A flag known to be valid (equal to one that compiled before): only its key is checked for duplicates. */
  checkKey(key: string, index: number): void {
    seenOnce(key, index, this.seen, (path, message) => this.report(path, message));
  }

  private report(path: string, message: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ path, message });
  }
}

function seenOnce(key: string | undefined, index: number, seen: Set<string>, report: (path: string, message: string) => void): void {
  if (key === undefined) return;
  if (seen.has(key)) report(`$.flags[${index}].key`, `duplicate flag key ${JSON.stringify(key)}`);
  seen.add(key);
}

class Validator {
  constructor(private readonly report: (path: string, message: string) => void) {}

  /** Returns the flag key when the flag is valid enough to be keyed. */
  flag(value: unknown, path: string): string | undefined {
    const flag = this.object(value, path);
    if (flag === undefined) return undefined;
    const key = this.string(flag, 'key', path);
    this.boolean(flag, 'enabled', path);
    this.oneOf(flag, 'type', FLAG_TYPES, path);
    this.array(flag['rules'], `${path}.rules`)?.forEach((r, i) => this.rule(r, `${path}.rules[${i}]`));
    this.array(flag['rollouts'], `${path}.rollouts`)?.forEach((r, i) => this.rollout(r, `${path}.rollouts[${i}]`));
    const dv = flag['defaultVariant'];
    if (dv !== undefined && dv !== null) {
      const variant = this.object(dv, `${path}.defaultVariant`);
      if (variant !== undefined) {
        this.string(variant, 'key', `${path}.defaultVariant`);
        this.string(variant, 'attachment', `${path}.defaultVariant`);
      }
    }
    this.optionalArray(flag['prerequisites'], `${path}.prerequisites`)?.forEach((p, i) => this.prerequisite(p, `${path}.prerequisites[${i}]`));
    this.steps(flag['schedules'], `${path}.schedules`, 'schedule', (step, at) => this.boolean(step, 'enabled', at));
    return key;
  }

  private prerequisite(value: unknown, path: string): void {
    const p = this.object(value, path);
    if (p === undefined) return;
    const key = this.string(p, 'flagKey', path);
    if (key === '') this.report(`${path}.flagKey`, 'must not be empty');
    const { enabled, variants } = p;
    if ((enabled === undefined) === (variants === undefined)) {
      this.report(path, 'must have exactly one of enabled and variants');
      return;
    }
    if (enabled !== undefined) this.boolean(p, 'enabled', path);
    else this.array(variants, `${path}.variants`)?.forEach((v, i) => typeof v !== 'string' && this.report(`${path}.variants[${i}]`, 'must be a string'));
  }

  /** Schedules or ramp steps: each at a time later than (or, for schedules, the same as) the one before. */
  private steps(value: unknown, path: string, what: string, check: (step: Obj, path: string) => void, strictly = false): void {
    let previous = -Infinity;
    this.optionalArray(value, path)?.forEach((s, i) => {
      const at = `${path}[${i}]`;
      const step = this.object(s, at);
      if (step === undefined) return;
      check(step, at);
      const ms = this.time(step, 'at', at);
      if (Number.isNaN(ms)) return;
      if (strictly && ms <= previous) this.report(`${at}.at`, `must be later than the previous ${what}'s`);
      if (!strictly && ms < previous) this.report(`${at}.at`, `must not be earlier than the previous ${what}'s`);
      previous = ms;
    });
  }

  /** `validFrom` and `validUntil`, each optional (absent or null), the window not empty. */
  private window(item: Obj, path: string): void {
    const from = item['validFrom'] === undefined || item['validFrom'] === null ? -Infinity : this.time(item, 'validFrom', path);
    const until = item['validUntil'] === undefined || item['validUntil'] === null ? Infinity : this.time(item, 'validUntil', path);
    if (from >= until) this.report(`${path}.validUntil`, 'must be later than validFrom');
  }

  private time(obj: Obj, field: string, path: string): number {
    const ms = timestampMs(obj[field]);
    if (Number.isNaN(ms)) this.report(`${path}.${field}`, 'must be an RFC 3339 time');
    return ms;
  }

  private rule(value: unknown, path: string): void {
    const rule = this.object(value, path);
    if (rule === undefined) return;
    this.number(rule, 'rank', path);
    this.window(rule, path);
    this.oneOf(rule, 'segmentOperator', SEGMENT_OPERATORS, path);
    this.segments(rule['segments'], `${path}.segments`);
    this.array(rule['distributions'], `${path}.distributions`)?.forEach((d, i) => {
      const at = `${path}.distributions[${i}]`;
      const dist = this.object(d, at);
      if (dist === undefined) return;
      this.string(dist, 'variantKey', at);
      this.string(dist, 'variantAttachment', at);
      this.number(dist, 'rollout', at);
    });
  }

  private rollout(value: unknown, path: string): void {
    const rollout = this.object(value, path);
    if (rollout === undefined) return;
    this.oneOf(rollout, 'type', ROLLOUT_TYPES, path);
    this.number(rollout, 'rank', path);
    this.window(rollout, path);
    const threshold = rollout['threshold'];
    if (threshold !== undefined && threshold !== null) {
      const t = this.object(threshold, `${path}.threshold`);
      if (t !== undefined) {
        this.number(t, 'percentage', `${path}.threshold`);
        this.boolean(t, 'value', `${path}.threshold`);
        this.steps(t['ramp'], `${path}.threshold.ramp`, 'ramp step', (step, at) => this.percentage(step, 'percentage', at), true);
      }
    }
    const segment = rollout['segment'];
    if (segment !== undefined && segment !== null) {
      const s = this.object(segment, `${path}.segment`);
      if (s !== undefined) {
        this.boolean(s, 'value', `${path}.segment`);
        this.oneOf(s, 'segmentOperator', SEGMENT_OPERATORS, `${path}.segment`);
        this.segments(s['segments'], `${path}.segment.segments`);
      }
    }
  }

  private segments(value: unknown, path: string): void {
    this.array(value, path)?.forEach((s, i) => {
      const at = `${path}[${i}]`;
      const segment = this.object(s, at);
      if (segment === undefined) return;
      this.string(segment, 'key', at);
      this.oneOf(segment, 'matchType', MATCH_TYPES, at);
      this.array(segment['constraints'], `${at}.constraints`)?.forEach((c, j) => {
        const cat = `${at}.constraints[${j}]`;
        const constraint = this.object(c, cat);
        if (constraint === undefined) return;
        this.oneOf(constraint, 'type', COMPARISON_TYPES, cat);
        this.string(constraint, 'property', cat);
        this.string(constraint, 'operator', cat);
        this.string(constraint, 'value', cat);
      });
    });
  }

  object(value: unknown, path: string): Obj | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Obj;
    this.report(path, 'must be an object');
    return undefined;
  }

  /** An array, or undefined without a problem when absent (or null, which compilation reads as absent). */
  private optionalArray(value: unknown, path: string): unknown[] | undefined {
    return value === undefined || value === null ? undefined : this.array(value, path);
  }

  array(value: unknown, path: string): unknown[] | undefined {
    if (Array.isArray(value)) return value;
    this.report(path, 'must be an array');
    return undefined;
  }

  string(obj: Obj, field: string, path: string): string | undefined {
    const value = obj[field];
    if (typeof value === 'string') return value;
    this.report(`${path}.${field}`, 'must be a string');
    return undefined;
  }

  private boolean(obj: Obj, field: string, path: string): void {
    if (typeof obj[field] !== 'boolean') this.report(`${path}.${field}`, 'must be a boolean');
  }

  private number(obj: Obj, field: string, path: string): void {
    const value = obj[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) this.report(`${path}.${field}`, 'must be a finite number');
  }

  private percentage(obj: Obj, field: string, path: string): void {
    const value = obj[field];
    if (typeof value !== 'number' || !(value >= 0 && value <= 100)) this.report(`${path}.${field}`, 'must be a number from 0 to 100');
  }

  private oneOf(obj: Obj, field: string, allowed: readonly string[], path: string): void {
    const value = obj[field];
    if (typeof value !== 'string' || !allowed.includes(value)) {
      this.report(`${path}.${field}`, `must be one of ${allowed.join(', ')}`);
    }
  }
}
