import { inChunks } from '../sql-util.js';

/** The keys a loader reads: all of the namespace's (`undefined`), or only these. */
export type KeyScope = readonly string[] | undefined;

/** Runs `query` once for the whole namespace, or once per chunk of the scope so `IN` lists stay bounded. */
export function inScope<R>(scope: KeyScope, query: (keys: string[] | undefined) => PromiseLike<R[]>): Promise<R[]> {
  return scope === undefined ? Promise.resolve(query(undefined)) : inChunks(scope, query);
}

/** A query modifier keeping the rows whose `column` is one of `keys`, or every row when `keys` is undefined. */
export const whereInKeys =
  (column: string, keys: readonly string[] | undefined) =>
  (query: { whereIn(column: string, values: readonly string[]): unknown }): void => {
    if (keys !== undefined) query.whereIn(column, keys);
  };
