/**
 * OpenFeature's answers from the held snapshot, with the engine every evaluator runs: boolean
 * flags through `boolean`, variant flags through `string` (the variant key), `number` (the key
 * read as a number) and `object` (the attachment's JSON). A variant answer without a variant key
 * is the caller's default value; a disabled variant flag answers its default variant, as Flipt
 * does. Engine failures come back as OpenFeature error codes with the caller's default value.
 * Every answer of an existing flag is counted for Ensign's usage.
 */
import { type BooleanResult, type EvaluationEnv, type EvaluationFailure, evaluateBoolean, evaluateVariant, isFailure, type VariantResult } from '@ensign/engine';
import { ErrorCode, type EvaluationContext, type JsonValue, type ResolutionDetails, StandardResolutionReasons } from '@openfeature/server-sdk';
import { fliptInput } from '../context/flipt-context.js';
import type { HeldNamespace } from '../snapshot/held-namespace.js';
import type { UsageCounter } from '../usage/usage-counter.js';
import { booleanReason, variantReason } from './reasons.js';

const ERROR_CODES: Readonly<Record<EvaluationFailure['errorCode'], ErrorCode>> = {
  FLAG_NOT_FOUND: ErrorCode.FLAG_NOT_FOUND,
  TYPE_MISMATCH: ErrorCode.TYPE_MISMATCH,
  PARSE_ERROR: ErrorCode.PARSE_ERROR,
  GENERAL: ErrorCode.GENERAL,
};

function failed<T>(defaultValue: T, errorCode: ErrorCode, errorMessage: string): ResolutionDetails<T> {
  return { value: defaultValue, reason: StandardResolutionReasons.ERROR, errorCode, errorMessage };
}

const variantKeyOf = (result: VariantResult): string => result.variantKey;

/** A variant's value that cannot be answered as the type asked for. */
class Refused<T> {
  constructor(readonly details: ResolutionDetails<T>) {}
}

const engineFailure = <T>(defaultValue: T, failure: EvaluationFailure): ResolutionDetails<T> => failed(defaultValue, ERROR_CODES[failure.errorCode], failure.message);

export class FlagAnswers {
  constructor(
    /** The snapshot held now; undefined until the first arrives. */
    private readonly held: () => HeldNamespace | undefined,
    private readonly counter: UsageCounter | undefined,
    private readonly env: EvaluationEnv,
  ) {}

  boolean(flagKey: string, defaultValue: boolean, context: EvaluationContext): ResolutionDetails<boolean> {
    const held = this.held();
    if (held === undefined) return notReady(defaultValue);
    const result = evaluateBoolean(held.compiled, fliptInput(flagKey, context), this.env);
    if (isFailure(result)) return engineFailure(defaultValue, result);
    this.counter?.count(flagKey, result.reason, result.enabled ? 'true' : 'false');
    return this.booleanAnswer(held, result);
  }

  string(flagKey: string, defaultValue: string, context: EvaluationContext): ResolutionDetails<string> {
    return this.variant(flagKey, defaultValue, context, variantKeyOf);
  }

  number(flagKey: string, defaultValue: number, context: EvaluationContext): ResolutionDetails<number> {
    return this.variant(flagKey, defaultValue, context, (result) => {
      const value = Number(result.variantKey);
      if (result.variantKey.trim() === '' || !Number.isFinite(value)) return new Refused(failed(defaultValue, ErrorCode.TYPE_MISMATCH, `variant "${result.variantKey}" is not a number`));
      return value;
    });
  }

  object<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext): ResolutionDetails<T> {
    return this.variant(flagKey, defaultValue, context, (result) => {
      if (result.variantAttachment === '') return undefined;
      try {
        return JSON.parse(result.variantAttachment) as T;
      } catch {
        return new Refused(failed(defaultValue, ErrorCode.PARSE_ERROR, `the attachment of variant "${result.variantKey}" is not JSON`));
      }
    });
  }

  /**
   * A variant flag's answer; `valueOf` reads the value from the result (`""` or undefined: the
   * caller's default), or refuses it with an error answer.
   */
  private variant<T>(flagKey: string, defaultValue: T, context: EvaluationContext, valueOf: (result: VariantResult) => T | '' | undefined | Refused<T>): ResolutionDetails<T> {
    const held = this.held();
    if (held === undefined) return notReady(defaultValue);
    const result = evaluateVariant(held.compiled, fliptInput(flagKey, context), this.env);
    if (isFailure(result)) return engineFailure(defaultValue, result);
    this.counter?.count(flagKey, result.reason, result.variantKey);
    if (result.variantKey === '') return this.variantAnswer(held, flagKey, result, defaultValue);
    const value = valueOf(result);
    if (value instanceof Refused) return value.details;
    return this.variantAnswer(held, flagKey, result, value === '' || value === undefined ? defaultValue : value);
  }

  private variantAnswer<T>(held: HeldNamespace, flagKey: string, result: VariantResult, value: T): ResolutionDetails<T> {
    const split = result.reason === 'MATCH_EVALUATION_REASON' && held.splits.variantSplit(flagKey, result.segmentKeys, this.env.now);
    const reason = variantReason(result, split);
    const details: ResolutionDetails<T> = { value, reason, flagMetadata: held.metadataOf(result.segmentKeys, result.prerequisite) };
    if (result.variantKey !== '') details.variant = result.variantKey;
    return details;
  }

  private booleanAnswer(held: HeldNamespace, result: BooleanResult): ResolutionDetails<boolean> {
    return { value: result.enabled, variant: result.enabled ? 'true' : 'false', reason: booleanReason(result), flagMetadata: held.metadataOf(result.segmentKeys, result.prerequisite) };
  }
}

const notReady = <T>(defaultValue: T): ResolutionDetails<T> => failed(defaultValue, ErrorCode.PROVIDER_NOT_READY, 'no snapshot of the namespace has been received yet');
