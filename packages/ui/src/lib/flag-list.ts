/**
 * The flags list's search, filters, order and pages, done in the browser over the whole list so
 * that search covers every page. Indexing lower-cases each flag once; filtering then only scans.
 * How flags are used (last evaluation, stale or not) comes from the usage listing, keyed by flag.
 */
import type { Flag, FlagType } from '@ensign/core';
import { parseGoDuration } from './usage-window.js';

export type TypeFilter = 'all' | FlagType;
export type EnabledFilter = 'all' | 'enabled' | 'disabled';
export type FlagSort = 'key' | 'name' | 'updated' | 'created' | 'evaluated' | 'evaluated-oldest';

export const FLAG_SORTS: ReadonlyArray<readonly [FlagSort, string]> = [
  ['key', 'Key (A–Z)'],
  ['name', 'Name (A–Z)'],
  ['updated', 'Recently updated'],
  ['created', 'Recently created'],
  ['evaluated', 'Recently evaluated'],
  ['evaluated-oldest', 'Least recently evaluated'],
];

/** What the list needs to know of a flag's usage. */
export interface FlagUsageFacts {
  /** RFC 3339, or null when the flag was never evaluated. */
  lastEvaluatedAt: string | null;
  stale: boolean;
}

export interface FlagQuery {
  /** Words that must all occur in the key, name or description (any case). */
  search: string;
  type: TypeFilter;
  enabled: EnabledFilter;
  sort: FlagSort;
  /** Only the flags the usage listing calls stale. */
  stale: boolean;
  /** The usage window as a Go duration (`720h`); `""` for the service's default. */
  window: string;
}

export const DEFAULT_FLAG_QUERY: FlagQuery = { search: '', type: 'all', enabled: 'all', sort: 'key', stale: false, window: '' };

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

type Compare = (a: Flag, b: Flag) => number;

/** Epoch milliseconds of the flag's last evaluation; a flag never evaluated (or not listed yet) comes before every time. */
const lastEvaluation = (usage: ReadonlyMap<string, FlagUsageFacts> | undefined, flag: Flag): number => {
  const at = usage?.get(flag.key)?.lastEvaluatedAt;
  const time = at === null || at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};

/** The order of `sort`; the evaluation orders read `usage`, and flags evaluated at the same time (or never) go by key. */
export function compareFlags(sort: FlagSort, usage?: ReadonlyMap<string, FlagUsageFacts>): Compare {
  const byKey: Compare = (a, b) => collator.compare(a.key, b.key);
  switch (sort) {
    case 'key':
      return byKey;
    case 'name':
      return (a, b) => collator.compare(a.name, b.name) || byKey(a, b);
    case 'updated':
      return (a, b) => byTimeDesc(a.updatedAt, b.updatedAt) || byKey(a, b);
    case 'created':
      return (a, b) => byTimeDesc(a.createdAt, b.createdAt) || byKey(a, b);
    case 'evaluated':
      return (a, b) => Math.sign(lastEvaluation(usage, b) - lastEvaluation(usage, a)) || byKey(a, b);
    case 'evaluated-oldest':
      return (a, b) => Math.sign(lastEvaluation(usage, a) - lastEvaluation(usage, b)) || byKey(a, b);
  }
}

/** The flags that match `query`, in its order; `usage` answers the stale filter and the evaluation orders (no flag is stale without it). */
export function selectFlags(index: readonly IndexedFlag[], query: FlagQuery, usage?: ReadonlyMap<string, FlagUsageFacts>): Flag[] {
  const terms = searchTerms(query.search);
  const matches: Flag[] = [];
  for (const { flag, text } of index) {
    if (query.type !== 'all' && flag.type !== query.type) continue;
    if (query.enabled !== 'all' && flag.enabled !== (query.enabled === 'enabled')) continue;
    if (query.stale && usage?.get(flag.key)?.stale !== true) continue;
    if (!terms.every((term) => text.includes(term))) continue;
    matches.push(flag);
  }
  return matches.sort(compareFlags(query.sort, usage));
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

/** Reads the list's state from the address (`?q=…&type=…&state=…&sort=…&stale=1&window=…&page=…`), pages from 1. */
export function readFlagQuery(params: URLSearchParams): FlagQuery & { page: number } {
  const type = params.get('type');
  const enabled = params.get('state');
  const sort = params.get('sort');
  const window = params.get('window') ?? '';
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    search: params.get('q') ?? '',
    type: isTypeFilter(type) ? type : 'all',
    enabled: isEnabledFilter(enabled) ? enabled : 'all',
    sort: isSort(sort) ? sort : DEFAULT_FLAG_QUERY.sort,
    stale: params.get('stale') === '1',
    window: parseGoDuration(window) === undefined ? '' : window,
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
  if (query.stale) params.set('stale', '1');
  if (query.window !== '') params.set('window', query.window);
  if (query.page > 0) params.set('page', String(query.page + 1));
  return params;
}
