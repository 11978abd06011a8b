import type { ExecutionContext } from 'ava';
import { AppError, Code } from '../src/index.js';

/** Asserts that `fn` throws a 400 AppError with exactly `message`. */
export function assertInvalid(t: ExecutionContext, fn: () => unknown, message: string): void {
  const err = t.throws(fn, { instanceOf: AppError });
  t.is(err?.code, Code.InvalidArgument);
  t.is(err?.message, message);
}
