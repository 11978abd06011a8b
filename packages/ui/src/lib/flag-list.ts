/**
 * The flags list's search, filters, order and pages, done in the browser over the whole list so
 * that search covers every page. Indexing lower-cases each flag once; filtering then only scans.
 */
import type { Flag, FlagType } from '@ensign/core';

export type TypeFilter = 'all' | FlagType;
export type EnabledFilter = 'all' | 'enabled' | 'disabled';
export type FlagSort = 'key' | 'name' | 'updated' | 'created';

export const FLAG_SORTS: ReadonlyArray<readonly [FlagSort, string]> = [
  ['key', 'Key (A–Z)'],
  ['name', 'Name (A–Z)'],
  ['updated', 'Recently updated'],
  ['created', 'Recently created'],
];

export interface FlagQuery {
  /** Words that must all occur in the key, name or description (any case). */
  search: string;
  type: TypeFilter;
  enabled: EnabledFilter;
  sort: FlagSort;
}

export const DEFAULT_FLAG_QUERY: FlagQuery = { search: '', type: 'all', enabled: 'all', sort: 'key' };

/** A flag with the text search looks in, lower-cased once. */
export interface IndexedFlag {
  flag: Flag;
  text: string;
}

export function indexFlags(flags: readonly Flag[]): IndexedFlag[] {
  return flags.map((flag) => ({ flag, text: `${flag.key}\n${flag.name}\n${flag.description}`.toLowerCase() }));
}

/** The search's words, lower-cased; an empty search has none and matches everything. */
export function searchTerms(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter((word) => word !== '');
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Newest first; equal times fall back to the key so the order is stable. */
const byTimeDesc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);

const COMPARE: Readonly<Record<FlagSort, (a: Flag, b: Flag) => number>> = {
  key: (a, b) => collator.compare(a.key, b.key),
  name: (a, b) => collator.compare(a.name, b.name) || collator.compare(a.key, b.key),
  updated: (a, b) => byTimeDesc(a.updatedAt, b.updatedAt) || collator.compare(a.key, b.key),
  created: (a, b) => byTimeDesc(a.createdAt, b.createdAt) || collator.compare(a.key, b.key),
};

/** The flags that match `query`, in its order. */
export function selectFlags(index: readonly IndexedFlag[], query: FlagQuery): Flag[] {
  const terms = searchTerms(query.search);
  const matches: Flag[] = [];
  for (const { flag, text } of index) {
    if (query.type !== 'all' && flag.type !== query.type) continue;
    if (query.enabled !== 'all' && flag.enabled !== (query.enabled === 'enabled')) continue;
    if (!terms.every((term) => text.includes(term))) continue;
    matches.push(flag);
  }
  return matches.sort(COMPARE[query.sort]);
}

/** The number of pages `total` items fill (at least one, so an empty list still has page 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A page index (from 0) kept within the pages there are. */
export function clampPage(page: number, total: number, pageSize: number): number {
  if (!Number.isFinite(page) || page < 0) return 0;
  return Math.min(Math.floor(page), pageCount(total, pageSize) - 1);
}

/** The items of page `page` (from 0). */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): T[] {
  const start = clampPage(page, items.length, pageSize) * pageSize;
  return items.slice(start, start + pageSize);
}

const isTypeFilter = (value: string | null): value is FlagType => value === 'VARIANT_FLAG_TYPE' || value === 'BOOLEAN_FLAG_TYPE';
const isEnabledFilter = (value: string | null): value is EnabledFilter => value === 'enabled' || value === 'disabled';
const isSort = (value: string | null): value is FlagSort => FLAG_SORTS.some(([sort]) => sort === value);

/** Reads the list's state from the address (`?q=…&type=…&state=…&sort=…&page=…`), pages from 1. */
export function readFlagQuery(params: URLSearchParams): FlagQuery & { page: number } {
  const type = params.get('type');
  const enabled = params.get('state');
  const sort = params.get('sort');
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    search: params.get('q') ?? '',
    type: isTypeFilter(type) ? type : 'all',
    enabled: isEnabledFilter(enabled) ? enabled : 'all',
    sort: isSort(sort) ? sort : DEFAULT_FLAG_QUERY.sort,
    page: Number.isFinite(page) && page > 1 ? page - 1 : 0,
  };
}

/** The address form of the list's state; defaults are left out so a plain list has a plain address. */
export function writeFlagQuery(query: FlagQuery & { page: number }): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search !== '') params.set('q', query.search);
  if (query.type !== 'all') params.set('type', query.type);
  if (query.enabled !== 'all') params.set('state', query.enabled);
  if (query.sort !== DEFAULT_FLAG_QUERY.sort) params.set('sort', query.sort);
  if (query.page > 0) params.set('page', String(query.page + 1));
  return params;
}
