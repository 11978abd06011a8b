/** `GET /api/v1/audit/events`: the stored history over HTTP, its filters and paging, bad input, namespaced tokens. */
import test from 'ava';
import { issueToken } from '@ensign/auth';
import { type AuthHarness, bearer, startAuthHarness, UNAUTHENTICATED } from './auth-harness.js';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  const ok = async (method: string, path: string, json?: unknown) => {
    const res = await h.call(method, path, json === undefined ? {} : { json });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  await ok('POST', '/api/v1/namespaces', { key: 'shop', name: 'Shop' });
  await ok('POST', '/api/v1/namespaces/shop/flags', { key: 'color', name: 'Color', type: 'VARIANT_FLAG_TYPE' });
  await ok('POST', '/api/v1/namespaces/shop/flags/color/variants', { key: 'red', name: 'Red' });
  await ok('PUT', '/api/v1/namespaces/shop/flags/color', { name: 'Colour', enabled: true });
  await ok('POST', '/api/v1/namespaces/shop/segments', { key: 'color', name: 'Color users', matchType: 'ALL_MATCH_TYPE' });
  await ok('DELETE', '/api/v1/namespaces/shop/segments/color');
});
test.after.always(() => h?.close());

const summary = (events: Array<{ resource: string; key: string; action: string }>) => events.map((e) => `${e.resource}:${e.action}`);

test('the history of a namespace, newest first, with before and after of each change', async (t) => {
  const res = await h.call('GET', '/api/v1/namespaces/shop/audit/events');
  t.is(res.status, 200, res.text);
  t.deepEqual(summary(res.json.events), ['segment:deleted', 'segment:created', 'flag:updated', 'variant:created', 'flag:created', 'namespace:created']);
  t.is(res.json.totalCount, 6);
  t.is(res.json.nextPageToken, '');
  const update = res.json.events[2];
  t.like(update, { namespaceKey: 'shop', resource: 'flag', key: 'color', action: 'updated', before: { name: 'Color', enabled: false }, after: { name: 'Colour', enabled: true } });
  t.is(update.revision, res.json.events[3].revision + 1, 'each entry names the revision its write made');
  t.regex(update.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  t.like(res.json.events[0], { before: { key: 'color', name: 'Color users' } });
  t.false('after' in res.json.events[0], 'a deletion has no after');
  t.false('actor' in update, 'without authentication there is no actor');
  t.deepEqual((await h.call('GET', '/api/v1/audit/events?namespaceKey=shop')).json, res.json, 'the query form answers the same');
});

test('filters: type (repeated or comma-separated), key or parent key, action, time window', async (t) => {
  const get = async (query: string) => summary((await h.call('GET', `/api/v1/audit/events?namespaceKey=shop&${query}`)).json.events);
  t.deepEqual(await get('type=flag&type=variant&key=color'), ['flag:updated', 'variant:created', 'flag:created'], 'a variant is found by its flag');
  t.deepEqual(await get('type=flag,variant&key=color'), ['flag:updated', 'variant:created', 'flag:created']);
  t.deepEqual(await get('type=segment'), ['segment:deleted', 'segment:created']);
  t.deepEqual(await get('action=created,deleted&type=segment,flag'), ['segment:deleted', 'segment:created', 'flag:created']);
  const all = (await h.call('GET', '/api/v1/audit/events?namespaceKey=shop')).json.events;
  const from = all[2].at as string;
  const window = await get(`from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.parse(all[0].at) + 1).toISOString())}`);
  t.deepEqual(window.slice(-1), ['flag:updated'], 'from is inclusive');
  t.deepEqual(await get('key=nothing-like-it'), []);
});

test('pages of `limit` entries follow each other through nextPageToken', async (t) => {
  const seen: string[] = [];
  let token = '';
  for (let page = 0; page < 10; page++) {
    const res = await h.call('GET', `/api/v1/namespaces/shop/audit/events?limit=4${token === '' ? '' : `&pageToken=${encodeURIComponent(token)}`}`);
    t.is(res.status, 200, res.text);
    t.is(res.json.totalCount, 6);
    seen.push(...summary(res.json.events));
    token = res.json.nextPageToken;
    if (token === '') break;
  }
  t.deepEqual(seen, ['segment:deleted', 'segment:created', 'flag:updated', 'variant:created', 'flag:created', 'namespace:created']);
});

test('bad filters are a 400 that names the field', async (t) => {
  const cases: Array<[string, string]> = [
    ['type=flags', 'invalid field type: "flags" is not one of namespace, flag, variant, segment, constraint, rule, distribution, rollout, schedule'],
    ['action=removed', 'invalid field action: "removed" is not one of created, updated, deleted, reordered, imported, stepped'],
    ['from=yesterday', 'invalid field from: must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not "yesterday"'],
    ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'invalid field to: must be later than from'],
    ['limit=5000', 'invalid field limit: must be between 0 and 1000'],
    ['limit=many', 'invalid field limit: must be an integer'],
    ['pageToken=eyJrZXkiOiJ4In0%3D', 'invalid field pageToken: is not a page token of this list'],
  ];
  for (const [query, message] of cases) {
    const res = await h.call('GET', `/api/v1/audit/events?${query}`);
    t.is(res.status, 400, query);
    t.deepEqual(res.json, invalidBody(message), query);
  }
  const garbled = await h.call('GET', '/api/v1/audit/events?pageToken=%25%25');
  t.is(garbled.status, 400);
});

test('who made each change: the authenticated actor; a namespaced token sees only its namespace', async (t) => {
  const a: AuthHarness = await startAuthHarness();
  t.teardown(() => a.close());
  const admin = bearer((await issueToken(a.store.authentications, { name: 'admin', description: '' })).clientToken);
  for (const key of ['team', 'rival']) {
    t.is((await a.call('POST', '/api/v1/namespaces', { headers: admin, json: { key, name: key } })).status, 200);
    t.is((await a.call('POST', `/api/v1/namespaces/${key}/flags`, { headers: admin, json: { key: 'f', name: 'F' } })).status, 200);
  }
  const created = await a.call('POST', '/auth/v1/method/token', { headers: admin, json: { name: 'team-ci', namespaceKey: 'team' } });
  const scoped = bearer(created.json.clientToken);
  t.is((await a.call('PUT', '/api/v1/namespaces/team/flags/f', { headers: scoped, json: { name: 'F by CI' } })).status, 200);

  const own = await a.call('GET', '/api/v1/namespaces/team/audit/events', { headers: scoped });
  t.is(own.status, 200, own.text);
  t.deepEqual(summary(own.json.events), ['flag:updated', 'flag:created', 'namespace:created']);
  t.like(own.json.events[0].actor, { method: 'METHOD_TOKEN', name: 'team-ci', authenticationId: created.json.authentication.id });
  t.like(own.json.events[1].actor, { method: 'METHOD_TOKEN', name: 'admin' });
  t.deepEqual((await a.call('GET', '/api/v1/audit/events?namespaceKey=team', { headers: scoped })).json.events, own.json.events);
  const byActor = await a.call('GET', '/api/v1/audit/events?actor=team-ci', { headers: admin });
  t.deepEqual(summary(byActor.json.events), ['flag:updated']);

  for (const path of ['/api/v1/namespaces/rival/audit/events', '/api/v1/audit/events?namespaceKey=rival', '/api/v1/audit/events']) {
    const res = await a.call('GET', path, { headers: scoped });
    t.is(res.status, 401, path);
    t.deepEqual(res.json, UNAUTHENTICATED, path);
  }
  t.is((await a.call('GET', '/api/v1/audit/events')).status, 401, 'the history needs a credential when authentication is required');
  const everything = await a.call('GET', '/api/v1/audit/events', { headers: admin });
  t.deepEqual([...new Set(everything.json.events.map((e: { namespaceKey: string }) => e.namespaceKey))].sort(), ['rival', 'team']);
});
