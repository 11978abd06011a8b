import type { Page, PageRequest } from '@ensign/core';

/** Rows of one page; `limit` is undefined for "everything". */
export type PageFetch<R> = (limit: number | undefined, offset: number) => PromiseLike<R[]>;

/**
 * Fetches `limit + 1` rows to learn whether another page follows (as Flipt does), and the whole
 * count. A limit of 0 returns everything from the offset.
 */
export async function fetchPage<R, T>(
  page: PageRequest,
  fetch: PageFetch<R>,
  count: () => PromiseLike<number>,
  toItems: (rows: R[]) => Promise<T[]>,
): Promise<Page<T>> {
  const offset = Math.max(0, page.offset);
  const limit = page.limit > 0 ? page.limit : undefined;
  const rows = await fetch(limit === undefined ? undefined : limit + 1, offset);
  const more = limit !== undefined && rows.length > limit;
  const items = await toItems(more ? rows.slice(0, limit) : rows);
  return { items, totalCount: await count(), nextOffset: more ? offset + items.length : undefined };
}

/** Applies a page window to a query builder. */
export function applyWindow<Q extends { limit(n: number): Q; offset(n: number): Q }>(
  query: Q,
  limit: number | undefined,
  offset: number,
): Q {
  let q = query;
  if (limit !== undefined) q = q.limit(limit);
  if (offset > 0) q = q.offset(offset);
  return q;
}
