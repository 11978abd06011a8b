import { AppError, type Code, httpStatusOf } from '@ensign/core';

/** An AppError whose HTTP status is not the one its code maps to (e.g. 413 with code 3). */
export class StatusError extends AppError {
  readonly httpStatus: number;

  constructor(httpStatus: number, code: Code, message: string) {
    super(code, message);
    this.httpStatus = httpStatus;
  }
}

/** The HTTP status an AppError is answered with. */
export const statusOf = (err: AppError): number =>
  err instanceof StatusError ? err.httpStatus : httpStatusOf(err.code);
