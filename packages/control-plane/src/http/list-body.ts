import { encodePageToken, type Page } from '@ensign/core';

/** A list response, `{<field>: [...], nextPageToken, totalCount}`. */
export type ListBody<F extends string, T> = { [K in F]: T[] } & { nextPageToken: string; totalCount: number };

/** Shapes a page; the token names the last item returned (`keyOf`) and the next offset. */
export function listBody<F extends string, T>(field: F, page: Page<T>, keyOf: (item: T) => string): ListBody<F, T> {
  const last = page.items.at(-1);
  const nextPageToken =
    page.nextOffset === undefined || last === undefined ? '' : encodePageToken(keyOf(last), page.nextOffset);
  return { [field]: page.items, nextPageToken, totalCount: page.totalCount } as ListBody<F, T>;
}
