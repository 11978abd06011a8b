import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'team', name: 'Team' } });
});
test.after.always(() => h?.close());

test('namespaced and legacy create both answer 200; legacy lands in default', async (t) => {
  const namespaced = await h.call('POST', '/api/v1/namespaces/team/flags', { json: { key: 'nsf', name: 'N' } });
  t.is(namespaced.status, 200);
  t.like(namespaced.json, { namespaceKey: 'team', key: 'nsf', type: 'VARIANT_FLAG_TYPE', enabled: false });
  const legacy = await h.call('POST', '/api/v1/flags', { json: { key: 'legacy-f', name: 'L' } });
  t.is(legacy.status, 200);
  t.is(legacy.json.namespaceKey, 'default');
  t.is((await h.call('GET', '/api/v1/namespaces/default/flags/legacy-f')).status, 200);
  t.is((await h.call('GET', '/api/v1/flags/nsf')).status, 404);
  // COMPAT(flipt): on routes without a body, any non-path request field can come from the query.
  t.is((await h.call('GET', '/api/v1/flags/nsf?namespaceKey=team')).json.namespaceKey, 'team');
});

test('snake_case fields and enum integers are accepted', async (t) => {
  const res = await h.call('POST', '/api/v1/flags', {
    json: { key: 'snake', name: 'S', namespace_key: 'team', type: 1, enabled: true },
  });
  t.is(res.status, 200);
  t.like(res.json, { namespaceKey: 'team', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
});

test('the path namespace wins over the body', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces/team/flags', {
    json: { key: 'path-wins', name: 'P', namespaceKey: 'default' },
  });
  t.is(res.json.namespaceKey, 'team');
  const upd = await h.call('PUT', '/api/v1/namespaces/team/flags/path-wins', {
    json: { key: 'other', name: 'Renamed', namespace_key: 'default' },
  });
  t.is(upd.status, 200);
  t.like(upd.json, { key: 'path-wins', namespaceKey: 'team', name: 'Renamed' });
});

test('get, update and delete through the legacy form', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'lifecycle', name: 'L', metadata: { team: 'web' } } });
  const got = await h.call('GET', '/api/v1/flags/lifecycle');
  t.deepEqual(got.json.metadata, { team: 'web' });
  const upd = await h.call('PUT', '/api/v1/flags/lifecycle', { json: { name: 'L2', enabled: true } });
  t.like(upd.json, { name: 'L2', enabled: true });
  const del = await h.call('DELETE', '/api/v1/flags/lifecycle');
  t.deepEqual(del.json, {});
  t.deepEqual((await h.call('GET', '/api/v1/flags/lifecycle')).json, {
    code: 5,
    message: 'flag "default/lifecycle" not found',
    details: [],
  });
});

test('list: field name, totalCount, tokens and the limit rule', async (t) => {
  for (const key of ['l1', 'l2', 'l3']) await h.call('POST', '/api/v1/namespaces/team/flags', { json: { key, name: key } });
  const all = await h.call('GET', '/api/v1/namespaces/team/flags');
  const total = all.json.totalCount as number;
  t.is(all.json.flags.length, total);
  const page = await h.call('GET', '/api/v1/namespaces/team/flags?limit=1');
  t.is(page.json.flags.length, 1);
  t.is(page.json.totalCount, total);
  t.deepEqual(JSON.parse(Buffer.from(page.json.nextPageToken, 'base64').toString()), { key: page.json.flags[0].key, offset: 1 });
  const next = await h.call('GET', `/api/v1/namespaces/team/flags?limit=1&pageToken=${encodeURIComponent(page.json.nextPageToken)}`);
  t.is(next.json.flags[0].key, all.json.flags[1].key);
  const noLimit = await h.call('GET', `/api/v1/namespaces/team/flags?pageToken=${encodeURIComponent(page.json.nextPageToken)}`);
  t.deepEqual(noLimit.json, invalidBody('limit must be set when offset or pageToken is set'));
  const legacyList = await h.call('GET', '/api/v1/flags');
  t.true(legacyList.json.flags.every((f: { namespaceKey: string }) => f.namespaceKey === 'default'));
});

test('create validation messages', async (t) => {
  t.deepEqual((await h.call('POST', '/api/v1/flags', { json: { name: 'x' } })).json, invalidBody('invalid field key: must not be empty'));
  t.deepEqual((await h.call('POST', '/api/v1/flags', { json: { key: 'a/b', name: 'x' } })).json, invalidBody('invalid field key: contains invalid characters'));
  t.deepEqual((await h.call('POST', '/api/v1/flags', { json: { key: 'ok' } })).json, invalidBody('invalid field name: must not be empty'));
  const missingNs = await h.call('POST', '/api/v1/namespaces/nowhere/flags', { json: { key: 'k', name: 'n' } });
  t.is(missingNs.status, 404);
});

test('variants: namespaced and legacy, attachment compacted, id from the path', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'colors', name: 'Colors' } });
  const created = await h.call('POST', '/api/v1/flags/colors/variants', {
    json: { key: 'blue', attachment: '{ "hex" : "#00f" }' },
  });
  t.is(created.status, 200);
  t.like(created.json, { key: 'blue', flagKey: 'colors', namespaceKey: 'default', attachment: '{"hex":"#00f"}' });
  const id = created.json.id as string;
  const upd = await h.call('PUT', `/api/v1/namespaces/default/flags/colors/variants/${id}`, {
    json: { id: 'not-this-one', key: 'navy', name: 'Navy' },
  });
  t.is(upd.status, 200);
  t.like(upd.json, { id, key: 'navy', name: 'Navy' });
  const bad = await h.call('POST', '/api/v1/flags/colors/variants', { json: { key: 'x', attachment: '{nope' } });
  t.deepEqual(bad.json, invalidBody('invalid field attachment: must be a json string'));
  const del = await h.call('DELETE', `/api/v1/flags/colors/variants/${id}`);
  t.deepEqual(del.json, {});
  t.deepEqual((await h.call('GET', '/api/v1/flags/colors')).json.variants, []);
});

test('update flag sets and clears the default variant (snake_case)', async (t) => {
  await h.call('POST', '/api/v1/namespaces/team/flags', { json: { key: 'dv', name: 'DV' } });
  const v = await h.call('POST', '/api/v1/namespaces/team/flags/dv/variants', { json: { key: 'on' } });
  const set = await h.call('PUT', '/api/v1/namespaces/team/flags/dv', { json: { name: 'DV', default_variant_id: v.json.id } });
  t.is(set.json.defaultVariant?.id, v.json.id);
  const cleared = await h.call('PUT', '/api/v1/namespaces/team/flags/dv', { json: { name: 'DV' } });
  t.is(cleared.json.defaultVariant, undefined);
});
