import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'team', name: 'Team' } });
});
test.after.always(() => h?.close());

test('segments: namespaced and legacy forms, matchType by name, number or snake_case', async (t) => {
  const legacy = await h.call('POST', '/api/v1/segments', { json: { key: 'beta', name: 'Beta', match_type: 'ANY_MATCH_TYPE' } });
  t.is(legacy.status, 200);
  t.like(legacy.json, { namespaceKey: 'default', matchType: 'ANY_MATCH_TYPE', constraints: [] });
  const namespaced = await h.call('POST', '/api/v1/namespaces/team/segments', { json: { key: 'beta', name: 'Beta', matchType: 1 } });
  t.like(namespaced.json, { namespaceKey: 'team', matchType: 'ANY_MATCH_TYPE' });
  const defaulted = await h.call('POST', '/api/v1/namespaces/team/segments', { json: { key: 'all', name: 'All' } });
  t.is(defaulted.json.matchType, 'ALL_MATCH_TYPE');
  t.is((await h.call('GET', '/api/v1/segments/beta')).json.namespaceKey, 'default');
  t.is((await h.call('GET', '/api/v1/namespaces/team/segments/beta')).json.namespaceKey, 'team');
  const upd = await h.call('PUT', '/api/v1/segments/beta', { json: { key: 'ignored', name: 'Beta 2' } });
  t.like(upd.json, { key: 'beta', name: 'Beta 2', matchType: 'ALL_MATCH_TYPE' });
});

test('segment list uses the `segments` field and pages', async (t) => {
  for (const key of ['s1', 's2']) await h.call('POST', '/api/v1/namespaces/team/segments', { json: { key, name: key } });
  const page = await h.call('GET', '/api/v1/namespaces/team/segments?limit=1&offset=1');
  t.is(page.json.segments.length, 1);
  t.true(page.json.totalCount >= 2);
  t.not(page.json.nextPageToken, '');
  const offsetOnly = await h.call('GET', '/api/v1/segments?offset=1');
  t.deepEqual(offsetOnly.json, invalidBody('limit must be set when offset or pageToken is set'));
});

test('constraints: create normalises, update by path id, delete; both forms', async (t) => {
  await h.call('POST', '/api/v1/segments', { json: { key: 'users', name: 'Users' } });
  const created = await h.call('POST', '/api/v1/segments/users/constraints', {
    json: { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'EQ', value: 'pro' },
  });
  t.is(created.status, 200);
  t.like(created.json, { segmentKey: 'users', namespaceKey: 'default', operator: 'eq', value: 'pro' });
  const id = created.json.id as string;
  const upd = await h.call('PUT', `/api/v1/namespaces/default/segments/users/constraints/${id}`, {
    json: { id: 'wrong', type: 4, property: 'signup', operator: 'gt', value: '2024-03-01T10:00:00.5+02:00' },
  });
  t.is(upd.status, 200);
  t.like(upd.json, { id, type: 'DATETIME_COMPARISON_TYPE', value: '2024-03-01T08:00:00Z' });
  const noValue = await h.call('POST', '/api/v1/segments/users/constraints', {
    json: { type: 'BOOLEAN_COMPARISON_TYPE', property: 'admin', operator: 'true', value: 'whatever' },
  });
  t.is(noValue.json.value, '');
  const del = await h.call('DELETE', `/api/v1/segments/users/constraints/${id}`);
  t.deepEqual(del.json, {});
  const left = await h.call('GET', '/api/v1/segments/users');
  t.deepEqual(left.json.constraints.map((c: { property: string }) => c.property), ['admin']);
});

test('constraint validation messages', async (t) => {
  await h.call('POST', '/api/v1/namespaces/team/segments', { json: { key: 'cv', name: 'CV' } });
  const post = (json: unknown) => h.call('POST', '/api/v1/namespaces/team/segments/cv/constraints', { json });
  t.deepEqual((await post({ property: 'p', operator: 'eq', value: 'v' })).json, invalidBody('invalid constraint type: "UNKNOWN_COMPARISON_TYPE"'));
  t.deepEqual((await post({ type: 'TEXT', property: 'p', operator: 'eq' })).json, invalidBody('invalid field type: unknown value "TEXT"'));
  t.deepEqual((await post({ type: 'NUMBER_COMPARISON_TYPE', property: 'p', operator: 'prefix', value: '1' })).json, invalidBody('constraint operator "prefix" is not valid for type number'));
  t.deepEqual((await post({ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'user', operator: 'eq', value: '1' })).json, invalidBody('property is user instead of "entityId"'));
  t.deepEqual((await post({ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq' })).json, invalidBody('invalid field value: must not be empty'));
  t.deepEqual((await post({ type: 'DATETIME_COMPARISON_TYPE', property: 'p', operator: 'lt', value: 'soon' })).json, invalidBody('parsing datetime from "soon"'));
  t.deepEqual((await post({ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: '[1]' })).json, invalidBody('invalid value provided for property "p" of type string'));
  const missing = await h.call('POST', '/api/v1/segments/nope/constraints', { json: { type: 1, property: 'p', operator: 'eq', value: 'v' } });
  t.is(missing.status, 404);
});

test('segment delete answers {} and a missing segment 404s on get', async (t) => {
  await h.call('POST', '/api/v1/segments', { json: { key: 'gone', name: 'Gone' } });
  t.deepEqual((await h.call('DELETE', '/api/v1/segments/gone')).json, {});
  t.deepEqual((await h.call('GET', '/api/v1/segments/gone')).json, { code: 5, message: 'segment "default/gone" not found', details: [] });
});
