/**
 * Evaluations counted as Flipt counts them (`flipt_evaluations_*`), by namespace and flag, in
 * plain numbers: the hot path finds its flag's tally and adds to it; label sets and metric lines
 * wait for a scrape of `/metrics` (evaluation-metrics.ts). COMPAT(flipt): a flag that is not found
 * fails before Flipt counts anything, so only existing flags are counted and the label sets stay
 * bounded by the flags.
 */
import type { BooleanResult, EvaluationFailure, VariantResult } from '@ensign/engine';
import { memoForFrozen } from '../frozen-memo.js';
import { HistogramTally } from './histogram-tally.js';

/** Upper bounds (ms) of the latency buckets: the OpenTelemetry default that Flipt's exporter uses. */
export const LATENCY_BOUNDS_MS: readonly number[] = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

/** What the evaluation operations report; one per process, shared by every transport. */
export interface EvaluationRecorder {
  variant(namespaceKey: string, flagKey: string, result: VariantResult, ms: number): void;
  boolean(namespaceKey: string, flagKey: string, result: BooleanResult, ms: number): void;
  /** An evaluation of an existing flag that failed (a rule out of order, an unreadable constraint). */
  error(namespaceKey: string, flagKey: string, ms: number): void;
}

/** The labels of one kind of result beyond namespace and flag, in Flipt's names. */
export type ResultLabels =
  | { match: string; segment: string; reason: string; value: string; type: 'variant' }
  | { value: string; reason: string; type: 'boolean' };

export interface ResultCount {
  readonly labels: ResultLabels;
  count: number;
}

/** One flag's counts. */
export class FlagTally {
  errors = 0;
  readonly latency = new HistogramTally(LATENCY_BOUNDS_MS);
  /** By a key naming the result's labels. */
  readonly results = new Map<string, ResultCount>();

  /** Every evaluation is a request: `flipt_evaluations_requests_total` is the latency's count. */
  get requests(): number {
    return this.latency.count;
  }

  count(key: string, labels: () => ResultLabels): void {
    const found = this.results.get(key);
    if (found !== undefined) found.count++;
    else this.results.set(key, { labels: labels(), count: 1 });
  }
}

/** A result's label key, made once per shared (frozen) result object of the engine. */
const variantKey = memoForFrozen((r: VariantResult): string => `v|${r.match}|${r.segmentKeys[0] ?? ''}|${r.reason}|${r.variantKey}`);
/** Boolean results are made per evaluation, so their keys are looked up, not built: one pair per reason. */
const booleanKeys = new Map<string, readonly [whenFalse: string, whenTrue: string]>();
function booleanKey(r: BooleanResult): string {
  let keys = booleanKeys.get(r.reason);
  if (keys === undefined) {
    keys = [`b|false|${r.reason}`, `b|true|${r.reason}`];
    booleanKeys.set(r.reason, keys);
  }
  return keys[r.enabled ? 1 : 0];
}
const variantLabels = (r: VariantResult): ResultLabels => ({ match: String(r.match), segment: r.segmentKeys[0] ?? '', reason: r.reason, value: r.variantKey, type: 'variant' });
const booleanLabels = (r: BooleanResult): ResultLabels => ({ value: String(r.enabled), reason: r.reason, type: 'boolean' });

/** Every flag's counts, by namespace. */
export class EvaluationTally implements EvaluationRecorder {
  private readonly byNamespace = new Map<string, Map<string, FlagTally>>();

  variant(namespaceKey: string, flagKey: string, result: VariantResult, ms: number): void {
    const tally = this.tallyOf(namespaceKey, flagKey);
    tally.latency.observe(ms);
    tally.count(variantKey(result), () => variantLabels(result));
  }

  boolean(namespaceKey: string, flagKey: string, result: BooleanResult, ms: number): void {
    const tally = this.tallyOf(namespaceKey, flagKey);
    tally.latency.observe(ms);
    tally.count(booleanKey(result), () => booleanLabels(result));
  }

  error(namespaceKey: string, flagKey: string, ms: number): void {
    const tally = this.tallyOf(namespaceKey, flagKey);
    tally.latency.observe(ms);
    tally.errors++;
  }

  /** Every counted flag with its namespace. */
  *flags(): IterableIterator<[namespaceKey: string, flagKey: string, tally: FlagTally]> {
    for (const [namespaceKey, flags] of this.byNamespace) for (const [flagKey, tally] of flags) yield [namespaceKey, flagKey, tally];
  }

  private tallyOf(namespaceKey: string, flagKey: string): FlagTally {
    let flags = this.byNamespace.get(namespaceKey);
    if (flags === undefined) {
      flags = new Map();
      this.byNamespace.set(namespaceKey, flags);
    }
    let tally = flags.get(flagKey);
    if (tally === undefined) {
      tally = new FlagTally();
      flags.set(flagKey, tally);
    }
    return tally;
  }
}

/** `{recorder}` when one is set, so settings never carry an undefined one. */
export const recorderOf = (options: { recorder?: EvaluationRecorder }): { recorder?: EvaluationRecorder } =>
  options.recorder === undefined ? {} : { recorder: options.recorder };

/**
 * Counts a failed evaluation as an error when Flipt would: a flag that is not found or of the
 * other type fails before Flipt's evaluator counts it; a failure while evaluating is an error.
 */
export function countFailure(recorder: EvaluationRecorder | undefined, namespaceKey: string, flagKey: string, failure: EvaluationFailure, ms: number): void {
  if (failure.errorCode === 'PARSE_ERROR' || failure.errorCode === 'GENERAL') recorder?.error(namespaceKey, flagKey, ms);
}
