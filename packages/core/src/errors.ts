/**
 * The one error type of Ensign. Every layer throws `AppError`; each transport maps its `code`
 * once (HTTP status + Flipt's `{code, message, details}` body, or a gRPC status).
 */
import { boundedMessage, boundedQuotes } from './bounded-text.js';

/** gRPC status codes; Flipt's HTTP error bodies carry these integers in `code`. */
export const Code = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: Code;
  /** The request field the error is about, when there is one. */
  readonly field: string | undefined;
  /** The HTTP status it is answered with: its code's (grpc-gateway's mapping) unless given (413 with code 3). */
  readonly httpStatus: number;
  /** Set when a 5xx is the answer the service means to give (a write refused in read-only mode), so it is not logged as a fault. */
  readonly intended: boolean;

  constructor(code: Code, message: string, options?: { field?: string; cause?: unknown; httpStatus?: number; intended?: boolean }) {
    super(boundedMessage(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options?.field;
    this.httpStatus = options?.httpStatus ?? httpStatusOf(code);
    this.intended = options?.intended ?? false;
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/**
 * Whether a failure is the server's, to be logged: anything not an AppError, and AppErrors
 * answered with a 5xx but for "not implemented", which is the client's asking, and answers the
 * service means to give.
 */
export const isServerFault = (err: unknown): boolean =>
  !isAppError(err) || (err.httpStatus >= 500 && err.code !== Code.Unimplemented && !err.intended);

/** A request body over the limit: 413, with Flipt's invalid-argument code. */
export const bodyTooLarge = (limitBytes: number): AppError =>
  new AppError(Code.InvalidArgument, `request body too large: limit is ${limitBytes} bytes`, { httpStatus: 413 });

/** A write the current state refuses (a flag others require, a schedule already applied): 409, FAILED_PRECONDITION over gRPC. */
export const conflict = (message: string): AppError => new AppError(Code.FailedPrecondition, message, { httpStatus: 409 });

/*
 * The refusals below quote what they refuse: what they quote is cut (`boundedQuotes`), so a lookup
 * or a value of 100 KB is answered with a short message.
 */

/** `<thing> "<name>" not found`, HTTP 404. */
export const notFound = (message: string): AppError => new AppError(Code.NotFound, boundedQuotes(message));

/** A request that is wrong as a whole (duplicates, references in use), HTTP 400. */
export const invalid = (message: string): AppError => new AppError(Code.InvalidArgument, boundedQuotes(message));

/** `invalid field <field>: <reason>`, HTTP 400. */
export const invalidField = (field: string, reason: string): AppError =>
  new AppError(Code.InvalidArgument, boundedQuotes(`invalid field ${field}: ${reason}`), { field });

/** `invalid field <field>: must not be empty`, HTTP 400. */
export const emptyField = (field: string): AppError => invalidField(field, 'must not be empty');

export const unauthenticated = (message = 'request was not authenticated'): AppError =>
  new AppError(Code.Unauthenticated, message);

export const permissionDenied = (message = 'permission denied'): AppError =>
  new AppError(Code.PermissionDenied, message);

export const unavailable = (message: string): AppError => new AppError(Code.Unavailable, message);

export const internal = (message = 'internal error', cause?: unknown): AppError =>
  new AppError(Code.Internal, message, { cause });

/** grpc-gateway's status mapping: gRPC code → HTTP status. */
const HTTP_STATUS: Readonly<Record<Code, number>> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

export function httpStatusOf(code: Code): number {
  return HTTP_STATUS[code] ?? 500;
}

/** Flipt's error body on every gateway route (OFREP has its own). */
export interface ErrorBody {
  code: Code;
  message: string;
  details: unknown[];
}

export const errorBody = (err: AppError): ErrorBody => ({ code: err.code, message: err.message, details: [] });
