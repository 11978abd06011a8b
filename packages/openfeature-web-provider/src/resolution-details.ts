/**
 * An answer as OpenFeature's resolution details. Flipt's semantics: a boolean flag answers its
 * value; a variant flag answers its variant's key (`getStringValue`) or its attachment parsed as
 * JSON (`getObjectValue`), its default variant when no rule matched, and the caller's default when
 * nothing is served. Reasons: SPLIT when the entity's bucket decided, TARGETING_MATCH for any
 * other match, DEFAULT when no rule or rollout matched, DISABLED for a disabled variant flag,
 * PREREQUISITE_FAILED (with `failedPrerequisite`) when a flag it requires did not hold, as Ensign's
 * OFREP says it. Metadata: `segments` (the matched segment keys, comma-separated) and `version`
 * (the snapshot's entity tag).
 */
import type { EvaluationFailure } from '@ensign/engine';
import { ErrorCode, type FlagMetadata, type JsonValue, type ResolutionDetails, StandardResolutionReasons } from '@openfeature/web-sdk';
import type { Answer } from './context-answers.js';

const ERROR_CODES: Readonly<Record<EvaluationFailure['errorCode'], ErrorCode>> = {
  FLAG_NOT_FOUND: ErrorCode.FLAG_NOT_FOUND,
  TYPE_MISMATCH: ErrorCode.TYPE_MISMATCH,
  PARSE_ERROR: ErrorCode.PARSE_ERROR,
  GENERAL: ErrorCode.GENERAL,
};

export const PREREQUISITE_FAILED = 'PREREQUISITE_FAILED';

/** What is known of the snapshot an answer came from. */
export interface AnswerSource {
  namespace: string;
  /** The snapshot's entity tag; undefined for a bootstrap document or a namespace that does not exist. */
  version: string | undefined;
}

export function failed<T>(defaultValue: T, errorCode: ErrorCode, errorMessage: string): ResolutionDetails<T> {
  return { value: defaultValue, reason: StandardResolutionReasons.ERROR, errorCode, errorMessage };
}

const notFound = <T>(defaultValue: T, source: AnswerSource, key: string): ResolutionDetails<T> =>
  failed(defaultValue, ErrorCode.FLAG_NOT_FOUND, `flag "${source.namespace}/${key}" not found`);

function metadataOf(answer: Answer & { kind: 'boolean' | 'variant' }, source: AnswerSource): FlagMetadata {
  const metadata: FlagMetadata = {};
  const { segmentKeys, prerequisite } = answer.result;
  if (segmentKeys.length > 0) metadata['segments'] = segmentKeys.join(',');
  if (prerequisite !== undefined) metadata['failedPrerequisite'] = prerequisite;
  if (source.version !== undefined) metadata['version'] = source.version;
  return metadata;
}

function reasonOf(answer: Answer & { kind: 'boolean' | 'variant' }): string {
  const { result } = answer;
  if (result.prerequisite !== undefined) return PREREQUISITE_FAILED;
  if (result.reason === 'FLAG_DISABLED_EVALUATION_REASON') return StandardResolutionReasons.DISABLED;
  // No match (a variant rule whose distributions missed the bucket included): the default.
  if (result.reason !== 'MATCH_EVALUATION_REASON') return StandardResolutionReasons.DEFAULT;
  return answer.split ? StandardResolutionReasons.SPLIT : StandardResolutionReasons.TARGETING_MATCH;
}

export function booleanDetails(answer: Answer | undefined, defaultValue: boolean, source: AnswerSource, key: string): ResolutionDetails<boolean> {
  if (answer === undefined) return notFound(defaultValue, source, key);
  if (answer.kind === 'failure') return failed(defaultValue, ERROR_CODES[answer.failure.errorCode], answer.failure.message);
  if (answer.kind === 'variant') return failed(defaultValue, ErrorCode.TYPE_MISMATCH, 'flag type VARIANT_FLAG_TYPE invalid');
  const value = answer.result.enabled;
  return { value, variant: String(value), reason: reasonOf(answer), flagMetadata: metadataOf(answer, source) };
}

/** The variant served, or a failure when the flag is no variant flag. */
function variantAnswer<T>(answer: Answer | undefined, defaultValue: T, source: AnswerSource, key: string): (Answer & { kind: 'variant' }) | ResolutionDetails<T> {
  if (answer === undefined) return notFound(defaultValue, source, key);
  if (answer.kind === 'failure') return failed(defaultValue, ERROR_CODES[answer.failure.errorCode], answer.failure.message);
  if (answer.kind === 'boolean') return failed(defaultValue, ErrorCode.TYPE_MISMATCH, 'flag type BOOLEAN_FLAG_TYPE invalid');
  return answer;
}

export function stringDetails(answer: Answer | undefined, defaultValue: string, source: AnswerSource, key: string): ResolutionDetails<string> {
  const variant = variantAnswer(answer, defaultValue, source, key);
  if (!('kind' in variant)) return variant;
  const { variantKey } = variant.result;
  const served = variantKey === '' ? {} : { variant: variantKey };
  return { value: variantKey === '' ? defaultValue : variantKey, ...served, reason: reasonOf(variant), flagMetadata: metadataOf(variant, source) };
}

/** The attachment parsed; a variant without one (or no variant) answers the caller's default. */
export function objectDetails<T extends JsonValue>(answer: Answer | undefined, defaultValue: T, source: AnswerSource, key: string): ResolutionDetails<T> {
  const variant = variantAnswer(answer, defaultValue, source, key);
  if (!('kind' in variant)) return variant;
  const { variantKey, variantAttachment } = variant.result;
  let value = defaultValue;
  if (variantAttachment !== '') {
    try {
      value = JSON.parse(variantAttachment) as T;
    } catch {
      return failed(defaultValue, ErrorCode.PARSE_ERROR, `the attachment of variant "${variantKey}" is not JSON`);
    }
  }
  const served = variantKey === '' ? {} : { variant: variantKey };
  return { value, ...served, reason: reasonOf(variant), flagMetadata: metadataOf(variant, source) };
}

/** Flipt has no number flags. */
export const numberDetails = (defaultValue: number): ResolutionDetails<number> =>
  failed(defaultValue, ErrorCode.TYPE_MISMATCH, 'Flipt flags are boolean or variant flags: read a variant with getStringValue or getObjectValue');
