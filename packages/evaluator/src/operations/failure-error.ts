/** Engine failures as Flipt's transports report them. */
import { AppError, Code, invalid, notFound } from '@ensign/core';
import type { EvaluationFailure } from '@ensign/engine';

/** Not found, invalid argument, or internal. */
export function failureError(failure: EvaluationFailure): AppError {
  switch (failure.errorCode) {
    case 'FLAG_NOT_FOUND':
      return notFound(failure.message);
    case 'TYPE_MISMATCH':
    case 'PARSE_ERROR':
      return invalid(failure.message);
    default:
      return new AppError(Code.Internal, failure.message);
  }
}
