import type { Flag } from '@ensign/core';
import test from 'ava';
import { clampPage, DEFAULT_FLAG_QUERY, type FlagUsageFacts, indexFlags, pageCount, pageOf, readFlagQuery, selectFlags, writeFlagQuery } from '../src/lib/flag-list.js';

const flag = (key: string, over: Partial<Flag> = {}): Flag => ({
  namespaceKey: 'default',
  key,
  name: key,
  description: '',
  enabled: false,
  type: 'VARIANT_FLAG_TYPE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  variants: [],
  ...over,
});

const flags = [
  flag('checkout-v2', { name: 'New checkout', description: 'Rolls out the Stripe checkout', enabled: true, updatedAt: '2026-03-01T00:00:00Z' }),
  flag('dark-mode', { name: 'Dark mode', type: 'BOOLEAN_FLAG_TYPE', enabled: true, createdAt: '2026-02-01T00:00:00Z' }),
  flag('flag-10', { name: 'Ten' }),
  flag('flag-9', { name: 'Nine', type: 'BOOLEAN_FLAG_TYPE' }),
];
const keys = (list: Flag[]) => list.map((f) => f.key);
const index = indexFlags(flags);

test('search matches every word in the key, name or description, in any case', (t) => {
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, search: 'STRIPE' })), ['checkout-v2']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, search: 'dark mode' })), ['dark-mode']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, search: 'flag nine' })), ['flag-9']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, search: 'dark stripe' })), []);
  t.is(selectFlags(index, { ...DEFAULT_FLAG_QUERY, search: '   ' }).length, 4, 'blank search matches all');
});

test('filters by type and by enabled state, together with search', (t) => {
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, type: 'BOOLEAN_FLAG_TYPE' })), ['dark-mode', 'flag-9']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, enabled: 'disabled' })), ['flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, type: 'BOOLEAN_FLAG_TYPE', enabled: 'enabled', search: 'mode' })), ['dark-mode']);
});

test('sorts keys naturally (flag-9 before flag-10), names, and newest first by time', (t) => {
  t.deepEqual(keys(selectFlags(index, DEFAULT_FLAG_QUERY)), ['checkout-v2', 'dark-mode', 'flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'name' })), ['dark-mode', 'checkout-v2', 'flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'updated' })), ['checkout-v2', 'dark-mode', 'flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'created' }))[0], 'dark-mode');
});

test('pages: the count, a page out of range clamped, the items of a page', (t) => {
  t.is(pageCount(0, 25), 1);
  t.is(pageCount(120, 25), 5);
  t.is(clampPage(9, 120, 25), 4);
  t.is(clampPage(-1, 120, 25), 0);
  const items = Array.from({ length: 120 }, (_, i) => i);
  t.deepEqual(pageOf(items, 4, 25), [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
  t.is(pageOf(items, 7, 25)[0], 100, 'past the end shows the last page');
});

test('the address keeps the list state, leaving defaults out', (t) => {
  const state = { search: 'dark', type: 'BOOLEAN_FLAG_TYPE' as const, enabled: 'enabled' as const, sort: 'updated' as const, stale: true, window: '168h', page: 2 };
  const params = writeFlagQuery(state);
  t.is(params.toString(), 'q=dark&type=BOOLEAN_FLAG_TYPE&state=enabled&sort=updated&stale=1&window=168h&page=3');
  t.deepEqual(readFlagQuery(params), state);
  t.is(writeFlagQuery({ ...DEFAULT_FLAG_QUERY, page: 0 }).toString(), '');
  t.deepEqual(readFlagQuery(new URLSearchParams('type=nonsense&state=x&sort=y&page=-3&stale=yes&window=a+month')), { ...DEFAULT_FLAG_QUERY, page: 0 });
  t.is(readFlagQuery(new URLSearchParams('window=2s')).window, '2s', 'any Go duration, for a window of one\'s own');
});

const usage = new Map<string, FlagUsageFacts>([
  ['checkout-v2', { lastEvaluatedAt: '2026-05-10T11:59:00Z', stale: false }],
  ['dark-mode', { lastEvaluatedAt: '2026-05-01T08:00:00Z', stale: false }],
  ['flag-10', { lastEvaluatedAt: null, stale: true }],
  ['flag-9', { lastEvaluatedAt: null, stale: true }],
]);

test('sorts by the last evaluation, most or least recent first; never-evaluated flags by key', (t) => {
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'evaluated' }, usage)), ['checkout-v2', 'dark-mode', 'flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'evaluated-oldest' }, usage)), ['flag-9', 'flag-10', 'dark-mode', 'checkout-v2']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'evaluated' })), ['checkout-v2', 'dark-mode', 'flag-9', 'flag-10'], 'without usage: all alike, by key');
  const partial = new Map([['flag-10', { lastEvaluatedAt: '2026-05-10T11:00:00Z', stale: false }]]);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, sort: 'evaluated' }, partial))[0], 'flag-10', 'a flag the listing lacks counts as never evaluated');
});

test('"stale only" keeps the flags the usage listing calls stale, and none without it', (t) => {
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, stale: true }, usage)), ['flag-9', 'flag-10']);
  t.deepEqual(keys(selectFlags(index, { ...DEFAULT_FLAG_QUERY, stale: true, search: 'ten' }, usage)), ['flag-10']);
  t.deepEqual(selectFlags(index, { ...DEFAULT_FLAG_QUERY, stale: true }), []);
});
