/**
 * Read-only mode, as Flipt's: every write of the management store fails with an internal error
 * (HTTP 500, gRPC INTERNAL) "modification is not allowed in read-only mode". Requests are decoded
 * and validated before the store is called, so a bad request is still its 400 first.
 */
import { AppError, Code } from '@ensign/core';
import type { ManagementStore } from '../store.js';

export const READ_ONLY_MESSAGE = 'modification is not allowed in read-only mode';

/** The error of a refused write: COMPAT(flipt) an internal error, though an intended answer, not a fault to log. */
export const readOnlyError = (): AppError => new AppError(Code.Internal, READ_ONLY_MESSAGE, { intended: true });

/** Repository methods that change state, by name: any repository added later is covered too. */
const WRITE_METHOD = /^(create|update|delete|order|import)/;

const refuse = async (): Promise<never> => {
  throw readOnlyError();
};

function guardWrites<T extends object>(repository: T): T {
  return new Proxy(repository, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (typeof name === 'string' && WRITE_METHOD.test(name)) return refuse;
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

/** The store with every repository's writes refused and its reads, history and ping as they are. */
export function readOnlyStore(store: ManagementStore): ManagementStore {
  const guarded = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value === 'function') return (value as (...args: unknown[]) => unknown).bind(target);
      if (value === null || typeof value !== 'object') return value;
      if (!guarded.has(name)) guarded.set(name, guardWrites(value));
      return guarded.get(name);
    },
  });
}
