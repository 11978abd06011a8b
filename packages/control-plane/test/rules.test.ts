import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
let variantId = '';
test.before(async () => {
  h = await startHarness();
  await h.call('POST', '/api/v1/flags', { json: { key: 'color', name: 'Color' } });
  variantId = (await h.call('POST', '/api/v1/flags/color/variants', { json: { key: 'blue' } })).json.id;
  for (const key of ['seg-a', 'seg-b', 'seg-c']) await h.call('POST', '/api/v1/segments', { json: { key, name: key } });
});
test.after.always(() => h?.close());

const createRule = async (json: unknown, path = '/api/v1/flags/color/rules') => h.call('POST', path, { json });

test('create rule: legacy and namespaced forms; single segment reported in segmentKey', async (t) => {
  const legacy = await createRule({ segmentKey: 'seg-a', rank: 1, segmentOperator: 'AND_SEGMENT_OPERATOR' });
  t.is(legacy.status, 200);
  t.like(legacy.json, { flagKey: 'color', namespaceKey: 'default', segmentKey: 'seg-a', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
  const namespaced = await createRule(
    { segment_keys: ['seg-b', 'seg-c', 'seg-b'], segment_operator: 1, rank: '2' },
    '/api/v1/namespaces/default/flags/color/rules',
  );
  t.is(namespaced.status, 200);
  t.like(namespaced.json, { segmentKey: '', segmentKeys: ['seg-b', 'seg-c'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
});

test('rule validation messages', async (t) => {
  t.deepEqual((await createRule({ rank: 1 })).json, invalidBody('invalid field segmentKey or segmentKeys: must not be empty'));
  t.deepEqual((await createRule({ segmentKey: 'seg-a', segmentKeys: ['seg-b'], rank: 1 })).json, invalidBody('invalid field segmentKey or segmentKeys: only one can be present'));
  t.deepEqual((await createRule({ segmentKey: 'seg-a' })).json, invalidBody('invalid field rank: must be greater than 0'));
  t.deepEqual((await createRule({ segmentKey: 'seg-a', segmentOperator: 'XOR', rank: 1 })).json, invalidBody('invalid field segmentOperator: unknown value "XOR"'));
});

test('PUT rules/order wins over rules/{id}, on both forms', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'ordered', name: 'O' } });
  const r1 = (await createRule({ segmentKey: 'seg-a', rank: 1 }, '/api/v1/flags/ordered/rules')).json.id as string;
  const r2 = (await createRule({ segmentKey: 'seg-b', rank: 2 }, '/api/v1/flags/ordered/rules')).json.id as string;
  const tooFew = await h.call('PUT', '/api/v1/flags/ordered/rules/order', { json: { ruleIds: [r1] } });
  t.deepEqual(tooFew.json, invalidBody('invalid field ruleIds: must contain atleast 2 elements'));
  const ordered = await h.call('PUT', '/api/v1/namespaces/default/flags/ordered/rules/order', { json: { rule_ids: [r2, r1] } });
  t.is(ordered.status, 200);
  t.deepEqual(ordered.json, {});
  const list = await h.call('GET', '/api/v1/flags/ordered/rules');
  t.deepEqual(list.json.rules.map((r: { id: string }) => r.id), [r2, r1]);
  t.is(list.json.totalCount, 2);
  const legacyOrder = await h.call('PUT', '/api/v1/flags/ordered/rules/order', { json: { ruleIds: [r1, r2] } });
  t.deepEqual(legacyOrder.json, {});
  t.is((await h.call('GET', `/api/v1/flags/ordered/rules/${r1}`)).json.rank, 1);
});

test('rule get/update/delete with the id from the path', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'upd', name: 'U' } });
  const id = (await createRule({ segmentKey: 'seg-a', rank: 1 }, '/api/v1/flags/upd/rules')).json.id as string;
  const upd = await h.call('PUT', `/api/v1/namespaces/default/flags/upd/rules/${id}`, { json: { id: 'other', segmentKeys: ['seg-b', 'seg-c'], segmentOperator: 'AND_SEGMENT_OPERATOR' } });
  t.is(upd.status, 200);
  t.like(upd.json, { id, segmentKey: '', segmentKeys: ['seg-b', 'seg-c'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
  t.is((await h.call('GET', `/api/v1/flags/upd/rules/${id}`)).json.id, id);
  t.deepEqual((await h.call('DELETE', `/api/v1/flags/upd/rules/${id}`)).json, {});
  t.is((await h.call('GET', `/api/v1/flags/upd/rules/${id}`)).status, 404);
});

test('rule list pages by rank with id tokens', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'paged', name: 'P' } });
  const ids: string[] = [];
  for (const [i, seg] of ['seg-a', 'seg-b', 'seg-c'].entries()) {
    ids.push((await createRule({ segmentKey: seg, rank: i + 1 }, '/api/v1/flags/paged/rules')).json.id);
  }
  const first = await h.call('GET', '/api/v1/namespaces/default/flags/paged/rules?limit=2');
  t.deepEqual(first.json.rules.map((r: { id: string }) => r.id), ids.slice(0, 2));
  t.deepEqual(JSON.parse(Buffer.from(first.json.nextPageToken, 'base64').toString()), { key: ids[1], offset: 2 });
  const rest = await h.call('GET', `/api/v1/flags/paged/rules?limit=2&pageToken=${encodeURIComponent(first.json.nextPageToken)}`);
  t.deepEqual(rest.json.rules.map((r: { id: string }) => r.id), ids.slice(2));
  t.is(rest.json.nextPageToken, '');
  const bad = await h.call('GET', '/api/v1/flags/paged/rules?limit=2&pageToken=%25%25');
  t.deepEqual(bad.json, invalidBody('pageToken is not valid: "%%"'));
});

test('distributions: create, update, delete (variantId required) on both forms', async (t) => {
  const ruleId = (await createRule({ segmentKey: 'seg-a', rank: 5 })).json.id as string;
  const created = await h.call('POST', `/api/v1/flags/color/rules/${ruleId}/distributions`, { json: { variant_id: variantId, rollout: '50.5' } });
  t.is(created.status, 200);
  t.like(created.json, { ruleId, variantId, rollout: 50.5 });
  const id = created.json.id as string;
  const upd = await h.call('PUT', `/api/v1/namespaces/default/flags/color/rules/${ruleId}/distributions/${id}`, { json: { variantId, rollout: 100 } });
  t.is(upd.status, 200);
  t.like(upd.json, { id, rollout: 100 });
  const over = await h.call('PUT', `/api/v1/flags/color/rules/${ruleId}/distributions/${id}`, { json: { variantId, rollout: 101 } });
  t.deepEqual(over.json, invalidBody("invalid field rollout: must be less than or equal to '100'"));
  const noVariant = await h.call('DELETE', `/api/v1/flags/color/rules/${ruleId}/distributions/${id}`);
  t.is(noVariant.status, 400);
  t.deepEqual(noVariant.json, invalidBody('invalid field variantId: must not be empty'));
  const del = await h.call('DELETE', `/api/v1/namespaces/default/flags/color/rules/${ruleId}/distributions/${id}?variantId=${variantId}`);
  t.deepEqual(del.json, {});
  t.deepEqual((await h.call('GET', `/api/v1/flags/color/rules/${ruleId}`)).json.distributions, []);
});

test('distribution validation', async (t) => {
  const ruleId = (await createRule({ segmentKey: 'seg-a', rank: 6 })).json.id as string;
  const path = `/api/v1/flags/color/rules/${ruleId}/distributions`;
  t.deepEqual((await h.call('POST', path, { json: { rollout: 10 } })).json, invalidBody('invalid field variantId: must not be empty'));
  t.deepEqual((await h.call('POST', path, { json: { variantId, rollout: -1 } })).json, invalidBody("invalid field rollout: must be greater than or equal to '0'"));
  t.deepEqual((await h.call('POST', path, { json: { variantId, rollout: 'most' } })).json, invalidBody('invalid field rollout: must be a number'));
});
