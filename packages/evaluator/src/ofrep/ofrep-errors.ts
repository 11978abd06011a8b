/** OFREP's own error bodies: `{key, errorCode, errorDetails}` instead of Flipt's `{code, message, details}`. */
import type { ServerResponse } from 'node:http';
import { Code, httpStatusOf, isAppError } from '@ensign/core';
import type { EvaluationFailure } from '@ensign/engine';
import { sendJson, StatusError } from '../http/respond.js';

/** An OFREP error answer. */
export class OfrepError extends Error {
  override readonly name = 'OfrepError';
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly details: string,
    /** The flag the error is about, when there is one. */
    readonly key = '',
  ) {
    super(details);
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

/** COMPAT(flipt): Flipt's wording for a flag that does not exist. */
export const flagNotFound = (key: string): OfrepError => new OfrepError(404, 'FLAG_NOT_FOUND', `flag was not found ${key}`, key);

/** Anything thrown by an OFREP route: a bad request is INVALID_CONTEXT, the rest GENERAL with the mapped status. */
export function toOfrepError(err: unknown): OfrepError | undefined {
  if (err instanceof OfrepError) return err;
  if (err instanceof StatusError) return new OfrepError(err.status, 'GENERAL', err.message);
  if (!isAppError(err)) return undefined;
  if (err.code === Code.InvalidArgument) return new OfrepError(400, 'INVALID_CONTEXT', err.message);
  return new OfrepError(httpStatusOf(err.code), 'GENERAL', err.message);
}

/** Writes an OFREP error; `key` and `errorCode` are left out when empty, as Flipt does. */
export function sendOfrepError(res: ServerResponse, err: OfrepError, extraHeaders?: Record<string, string>): void {
  const body: Record<string, string> = {};
  if (err.key !== '') body.key = err.key;
  if (err.errorCode !== '') body.errorCode = err.errorCode;
  body.errorDetails = err.details;
  sendJson(res, err.status, body, undefined, extraHeaders);
}
