/** `GET /internal/v1/analytics/namespaces/{ns}/flags/{flag}`: Flipt's series from stored counts, its steps and time formats, and the 400s of our departure. */
import test from 'ava';
import { type AnalyticsHarness, record, rfc, startAnalyticsHarness } from './analytics-harness.js';
import { invalidBody } from './harness.js';

const T0 = Date.UTC(2026, 10, 26, 4, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;

let h: AnalyticsHarness;
test.before(async () => {
  h = await startAnalyticsHarness();
  await record(h.store, 'default', T0 + 3 * MIN + 500, [['color', 'red', 2], ['color', 'blue', 1], ['size', 'big', 9]]);
  await record(h.store, 'default', T0 + 3 * MIN + 40_000, [['color', 'red', 1]]);
  await record(h.store, 'default', T0 + 17 * MIN, [['color', 'red', 5]]);
  await record(h.store, 'shop', T0 + 3 * MIN, [['color', 'red', 100]]);
});
test.after.always(() => h?.close());

const series = (ns: string, flag: string, query: string) => h.get(`/internal/v1/analytics/namespaces/${ns}/flags/${flag}?${query}`);
const range = (from: number, to: number) => `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;

test('under 4 hours one bucket a minute, from from\'s minute to to\'s, zero-filled, as Flipt writes them', async (t) => {
  const res = await series('default', 'color', range(T0, T0 + 30 * MIN));
  t.is(res.status, 200, res.text);
  t.is(res.headers.get('content-type'), 'application/json');
  t.is(res.json.timestamps.length, 31);
  t.is(res.json.timestamps[0], '2026-11-26T04:00:00Z');
  t.is(res.json.timestamps[30], '2026-11-26T04:30:00Z');
  const expected = new Array(31).fill(0);
  expected[3] = 4;
  expected[17] = 5;
  t.deepEqual(res.json.values, expected);
  t.deepEqual(Object.keys(res.json), ['timestamps', 'values']);
});

test('the step grows with the range: 5 minutes from 4 hours, 15 from 12, 30 from 24', async (t) => {
  for (const [hours, step] of [[4, 5], [12, 15], [24, 30], [3.99, 1]] as const) {
    const res = await series('default', 'color', range(T0, T0 + hours * HOUR));
    t.is(res.status, 200, res.text);
    const [first, second] = res.json.timestamps as string[];
    t.is(Date.parse(second as string) - Date.parse(first as string), step * MIN, `${hours} h`);
    t.is(res.json.values.reduce((a: number, b: number) => a + b, 0), 9, `${hours} h`);
  }
  const twelve = await series('default', 'color', range(T0 + 7 * MIN, T0 + 12 * HOUR + 7 * MIN));
  t.is(twelve.json.timestamps[0], rfc(T0), 'buckets start at a multiple of the step');
  t.deepEqual(twelve.json.values.slice(0, 3), [4, 5, 0]);
});

test('times may carry fractional seconds and offsets, or be written `YYYY-MM-DD HH:MM:SS` in UTC', async (t) => {
  const plain = await series('default', 'color', 'from=2026-11-26%2004:00:00&to=2026-11-26%2004:05:00');
  t.is(plain.status, 200, plain.text);
  t.deepEqual(plain.json.values, [0, 0, 0, 4, 0, 0]);
  const offset = await series('default', 'color', `from=${encodeURIComponent('2026-11-26T06:00:00.123456+02:00')}&to=${encodeURIComponent('2026-11-26T05:05:00+01:00')}`);
  t.deepEqual(offset.json, plain.json);
});

test('a flag or namespace never counted answers zeros', async (t) => {
  for (const [ns, flag] of [['default', 'nothing'], ['no-such-namespace', 'color']]) {
    const res = await series(ns as string, flag as string, range(T0, T0 + 2 * MIN));
    t.is(res.status, 200, res.text);
    t.deepEqual(res.json, { timestamps: [rfc(T0), rfc(T0 + MIN), rfc(T0 + 2 * MIN)], values: [0, 0, 0] });
  }
  t.deepEqual((await series('shop', 'color', range(T0 + 3 * MIN, T0 + 3 * MIN))).json.values, [100], 'namespaces are apart');
});

test('DEPARTURE(flipt): a missing or bad time, to before from, or a range over 31 days is a 400 naming the field', async (t) => {
  const from = encodeURIComponent(new Date(T0).toISOString());
  const cases: Array<[string, string]> = [
    ['', 'invalid field from: must not be empty'],
    [`from=${from}`, 'invalid field to: must not be empty'],
    [`from=yesterday&to=${from}`, 'invalid field from: must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not "yesterday"'],
    [`from=${from}&to=2026-02-31T00:00:00Z`, 'invalid field to: must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not "2026-02-31T00:00:00Z"'],
    [`from=${from}&to=2026-11-26T04:00:00`, 'invalid field to: must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not "2026-11-26T04:00:00"'],
    [range(T0, T0 - 1000), 'invalid field to: must not be before from'],
    [range(T0, T0 + 31 * 24 * HOUR + 1), 'invalid field to: must be at most 31 days after from'],
  ];
  for (const [query, message] of cases) {
    const res = await series('default', 'color', query);
    t.is(res.status, 400, query);
    t.deepEqual(res.json, invalidBody(message), query);
  }
  t.is((await series('default', 'color', range(T0, T0 + 31 * 24 * HOUR))).status, 200, '31 days exactly');
});

test('unknown paths below the analytics API are grpc-gateway 404s', async (t) => {
  const res = await h.get('/internal/v1/analytics/namespaces/default/flags');
  t.is(res.status, 404);
  t.deepEqual(res.json, { code: 5, message: 'Not Found', details: [] });
});
