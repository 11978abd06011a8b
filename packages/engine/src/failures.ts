/** The failures evaluation returns as values, with Flipt's messages. */
import { boundedInput } from '@ensign/core';
import type { EvaluationFailure } from './evaluation-types.js';

/** `flag "<ns>/<key>" not found`, with the resolved namespace. */
export function flagNotFound(namespaceKey: string, flagKey: string): EvaluationFailure {
  return { errorCode: 'FLAG_NOT_FOUND', message: `flag "${boundedInput(namespaceKey)}/${boundedInput(flagKey)}" not found` };
}

/** The flag is of the other type than the endpoint evaluates. */
export function typeMismatch(actual: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE'): EvaluationFailure {
  return { errorCode: 'TYPE_MISMATCH', message: `flag type ${actual} invalid` };
}

/** A constraint of unknown comparison type was reached. */
export function unknownConstraintType(): EvaluationFailure {
  return { errorCode: 'PARSE_ERROR', message: 'unknown constraint type' };
}

/** True iff the value is a failure (it carries an `errorCode`). */
export function isFailure(x: unknown): x is EvaluationFailure {
  return typeof x === 'object' && x !== null && 'errorCode' in x;
}
