/** The usage routes (an Ensign extension): every flag of a namespace judged over a window, and one flag's values and reasons. */
import test from 'ava';
import { type AnalyticsHarness, record, startAnalyticsHarness } from './analytics-harness.js';
import { invalidBody } from './harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 26, 4, 30, 0);
const iso = (ms: number): string => new Date(ms).toISOString();

let h: AnalyticsHarness;
test.before(async () => {
  h = await startAnalyticsHarness({ start: NOW - 60 * DAY });
  const { store } = h;
  await store.namespaces.create({ key: 'shop', name: 'Shop', description: '' });
  const flag = (key: string, type: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE' = 'VARIANT_FLAG_TYPE') =>
    store.flags.create({ namespaceKey: 'shop', key, name: key.toUpperCase(), description: '', enabled: true, type, metadata: undefined });
  for (const key of ['active', 'launched', 'unused', 'before', 'usage']) await flag(key);
  h.clock.ms = NOW - 2 * DAY;
  await flag('fresh', 'BOOLEAN_FLAG_TYPE');
  h.clock.ms = NOW;
  await record(store, 'shop', NOW - DAY, [['active', 'red', 3], ['active', 'blue', 1]]);
  await record(store, 'shop', NOW - 40 * DAY, [['launched', 'off', 2, 'DEFAULT_EVALUATION_REASON']]);
  await record(store, 'shop', NOW - 10 * DAY, [['launched', 'on', 7]]);
  await record(store, 'shop', NOW - 45 * DAY, [['before', 'red', 5]]);
  await record(store, 'shop', NOW - HOUR, [['fresh', 'true', 1]]);
  await record(store, 'default', NOW - HOUR, [['active', 'red', 1000]]);
});
test.after.always(() => h?.close());

const summary = (flags: Array<{ flagKey: string; status: string; stale: boolean }>) => flags.map((f) => `${f.flagKey}:${f.status}${f.stale ? ':stale' : ''}`);

test('every flag of the namespace, by key, judged over the default window of 30 days', async (t) => {
  const res = await h.get('/api/v1/namespaces/shop/usage');
  t.is(res.status, 200, res.text);
  t.is(res.json.window, '720h');
  t.is(res.json.since, iso(NOW - 30 * DAY));
  t.deepEqual(summary(res.json.flags), ['active:active', 'before:inactive:stale', 'fresh:new', 'launched:launched:stale', 'unused:inactive:stale', 'usage:inactive:stale']);
  const [active, before, fresh, launched, unused] = res.json.flags;
  t.deepEqual(active, {
    flagKey: 'active',
    name: 'ACTIVE',
    type: 'VARIANT_FLAG_TYPE',
    enabled: true,
    createdAt: iso(NOW - 60 * DAY),
    lastEvaluatedAt: iso(NOW - DAY),
    evaluations: 4,
    values: [{ value: 'red', count: 3 }, { value: 'blue', count: 1 }],
    status: 'active',
    stale: false,
  });
  t.like(before, { evaluations: 0, values: [], lastEvaluatedAt: iso(NOW - 45 * DAY) }, 'evaluated, but not inside the window');
  t.like(fresh, { type: 'BOOLEAN_FLAG_TYPE', createdAt: iso(NOW - 2 * DAY), evaluations: 1, values: [{ value: 'true', count: 1 }] });
  t.like(launched, { evaluations: 7, values: [{ value: 'on', count: 7 }] }, 'what it served before the window does not count');
  t.like(unused, { evaluations: 0, lastEvaluatedAt: null });
});

test('stale=true keeps the stale flags only; window= judges over another window', async (t) => {
  const stale = await h.get('/api/v1/namespaces/shop/usage?stale=true');
  t.deepEqual(summary(stale.json.flags), ['before:inactive:stale', 'launched:launched:stale', 'unused:inactive:stale', 'usage:inactive:stale']);
  t.deepEqual((await h.get('/api/v1/namespaces/shop/usage?stale=false')).json.flags.length, 6);
  const hour = await h.get('/api/v1/namespaces/shop/usage?window=90m');
  t.is(hour.json.window, '1h30m');
  t.is(hour.json.since, iso(NOW - 90 * 60_000));
  t.deepEqual(summary(hour.json.flags), ['active:inactive:stale', 'before:inactive:stale', 'fresh:launched:stale', 'launched:inactive:stale', 'unused:inactive:stale', 'usage:inactive:stale']);
  const long = await h.get('/api/v1/namespaces/shop/usage?window=1440h');
  t.deepEqual(summary(long.json.flags), ['active:new', 'before:new', 'fresh:new', 'launched:new', 'unused:new', 'usage:new'], 'every flag is younger than 60 days');
});

test('a bad window or stale is a 400 naming it; a namespace that does not exist a 404', async (t) => {
  for (const [query, message] of [
    ['window=30d', 'invalid field window: must be a duration longer than 0 such as 720h or 90m, not "30d"'],
    ['window=0', 'invalid field window: must be a duration longer than 0 such as 720h or 90m, not "0"'],
    ['stale=yes', 'invalid field stale: must be true or false'],
  ]) {
    const res = await h.get(`/api/v1/namespaces/shop/usage?${query}`);
    t.is(res.status, 400, query);
    t.deepEqual(res.json, invalidBody(message as string), query);
  }
  const missing = await h.get('/api/v1/namespaces/nope/usage');
  t.is(missing.status, 404);
  t.deepEqual(missing.json, { code: 5, message: 'namespace "nope" not found', details: [] });
});

test('one flag: the last 24 hours unless told, per value and per reason', async (t) => {
  const res = await h.get('/api/v1/namespaces/shop/flags/active/usage');
  t.is(res.status, 200, res.text);
  t.deepEqual(res.json, {
    flagKey: 'active',
    from: iso(NOW - DAY),
    to: iso(NOW),
    evaluations: 4,
    lastEvaluatedAt: iso(NOW - DAY),
    values: [{ value: 'red', count: 3 }, { value: 'blue', count: 1 }],
    reasons: [{ reason: 'MATCH_EVALUATION_REASON', count: 4 }],
  });
  const launched = await h.get(`/api/v1/namespaces/shop/flags/launched/usage?from=${iso(NOW - 41 * DAY)}&to=${encodeURIComponent('2026-11-26 04:30:00')}`);
  t.like(launched.json, { evaluations: 9, reasons: [{ reason: 'MATCH_EVALUATION_REASON', count: 7 }, { reason: 'DEFAULT_EVALUATION_REASON', count: 2 }] });
  const before = await h.get(`/api/v1/namespaces/shop/flags/launched/usage?to=${iso(NOW - 39 * DAY)}`);
  t.like(before.json, { from: iso(NOW - 40 * DAY), evaluations: 2 }, 'from is a day before to when not told');
  t.like((await h.get('/api/v1/namespaces/shop/flags/unused/usage')).json, { evaluations: 0, lastEvaluatedAt: null, values: [], reasons: [] });
});

test('one flag: a flag that does not exist is a 404, bad times are 400s', async (t) => {
  const missing = await h.get('/api/v1/namespaces/shop/flags/nope/usage');
  t.is(missing.status, 404);
  t.deepEqual(missing.json, { code: 5, message: 'flag "shop/nope" not found', details: [] });
  const backwards = await h.get(`/api/v1/namespaces/shop/flags/active/usage?from=${iso(NOW)}&to=${iso(NOW - 1)}`);
  t.deepEqual(backwards.json, invalidBody('invalid field to: must not be before from'));
  t.is((await h.get('/api/v1/namespaces/shop/flags/active/usage?from=now')).status, 400);
});

test('a flag keyed `usage` is still a flag, and has usage of its own', async (t) => {
  const flag = await h.get('/api/v1/namespaces/shop/flags/usage');
  t.like(flag.json, { key: 'usage', name: 'USAGE' });
  t.like((await h.get('/api/v1/namespaces/shop/flags/usage/usage')).json, { flagKey: 'usage', evaluations: 0 });
});

test('the default window is the staleAfterMs the app was given', async (t) => {
  const week = await startAnalyticsHarness({ staleAfterMs: 7 * DAY, start: NOW });
  try {
    const res = await week.get('/api/v1/namespaces/default/usage');
    t.is(res.json.window, '168h');
    t.is(res.json.since, iso(NOW - 7 * DAY));
  } finally {
    await week.close();
  }
});
