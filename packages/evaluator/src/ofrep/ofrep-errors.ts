/** OFREP's own error bodies: `{key, errorCode, errorDetails}` instead of Flipt's `{code, message, details}`. */
import { AppError, boundedInput, Code } from '@ensign/core';
import type { EvaluationFailure } from '@ensign/engine';

const CODE_OF_STATUS: Readonly<Record<number, Code>> = { 400: Code.InvalidArgument, 404: Code.NotFound };

/** An OFREP error answer: an AppError that also carries OFREP's error code and the flag it is about. */
export class OfrepError extends AppError {
  constructor(
    httpStatus: number,
    readonly errorCode: string,
    details: string,
    /** The flag the error is about, when there is one. */
    readonly key = '',
  ) {
    super(CODE_OF_STATUS[httpStatus] ?? Code.Internal, details, { httpStatus });
  }
}

/** An engine failure for flag `key` as OFREP reports it. */
export function ofrepFailure(key: string, failure: EvaluationFailure): OfrepError {
  switch (failure.errorCode) {
    case 'FLAG_NOT_FOUND':
      return flagNotFound(key);
    case 'TYPE_MISMATCH':
    case 'PARSE_ERROR':
      return new OfrepError(400, 'INVALID_CONTEXT', failure.message, key);
    default:
      return new OfrepError(500, 'GENERAL', failure.message, key);
  }
}

/** COMPAT(flipt): Flipt's wording for a flag that does not exist (a long key quoted cut, with its length). */
export const flagNotFound = (key: string): OfrepError => new OfrepError(404, 'FLAG_NOT_FOUND', `flag was not found ${boundedInput(key)}`, key);

/** Any failure as OFREP answers it: a bad request is INVALID_CONTEXT, the rest GENERAL with its status. */
export function toOfrepError(err: AppError): OfrepError {
  if (err instanceof OfrepError) return err;
  if (err.code === Code.InvalidArgument && err.httpStatus === 400) return new OfrepError(400, 'INVALID_CONTEXT', err.message);
  return new OfrepError(err.httpStatus, 'GENERAL', err.message);
}

/** OFREP's body of an error; `key` and `errorCode` are left out when empty, as Flipt does. */
export function ofrepErrorBody(err: OfrepError): Record<string, string> {
  const body: Record<string, string> = {};
  if (err.key !== '') body.key = err.key;
  if (err.errorCode !== '') body.errorCode = err.errorCode;
  body.errorDetails = err.message;
  return body;
}
