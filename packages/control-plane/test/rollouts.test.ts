import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
const base = '/api/v1/namespaces/default/flags/toggle/rollouts';
test.before(async () => {
  h = await startHarness();
  await h.call('POST', '/api/v1/flags', { json: { key: 'toggle', name: 'Toggle', type: 'BOOLEAN_FLAG_TYPE' } });
  for (const key of ['internal', 'beta']) await h.call('POST', '/api/v1/segments', { json: { key, name: key } });
});
test.after.always(() => h?.close());

test('rollouts exist only in the namespaced form', async (t) => {
  const legacy = await h.call('GET', '/api/v1/flags/toggle/rollouts');
  t.is(legacy.status, 404);
  t.deepEqual(legacy.json, { code: 5, message: 'Not Found', details: [] });
  t.is((await h.call('POST', '/api/v1/flags/toggle/rollouts', { json: {} })).status, 404);
});

test('create threshold and segment rollouts; list uses the `rules` field', async (t) => {
  const threshold = await h.call('POST', base, { json: { rank: 1, threshold: { percentage: 25, value: true } } });
  t.is(threshold.status, 200);
  t.like(threshold.json, { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 25, value: true } });
  const segment = await h.call('POST', base, { json: { rank: 2, segment: { segment_key: 'internal', value: true } } });
  t.is(segment.status, 200);
  t.like(segment.json, { type: 'SEGMENT_ROLLOUT_TYPE', segment: { segmentKey: 'internal', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } });
  const list = await h.call('GET', base);
  t.deepEqual(Object.keys(list.json).sort(), ['nextPageToken', 'rules', 'totalCount']);
  t.true(list.json.rules.length >= 2);
  const page = await h.call('GET', `${base}?limit=1`);
  t.is(page.json.rules.length, 1);
  t.deepEqual(JSON.parse(Buffer.from(page.json.nextPageToken, 'base64').toString()), { key: page.json.rules[0].id, offset: 1 });
});

test('rollout validation messages', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'val', name: 'V', type: 1 } });
  const path = '/api/v1/namespaces/default/flags/val/rollouts';
  t.deepEqual((await h.call('POST', path, { json: { rank: 1 } })).json, invalidBody('rollout rule is missing'));
  t.deepEqual((await h.call('POST', path, { json: { threshold: { percentage: 5 } } })).json, invalidBody('invalid field rank: must be greater than 0'));
  t.deepEqual((await h.call('POST', path, { json: { rank: 1, threshold: { percentage: 101 } } })).json, invalidBody('invalid field threshold.percentage: must be within range [0, 100]'));
  t.deepEqual((await h.call('POST', path, { json: { rank: 1, segment: {} } })).json, invalidBody('invalid field segmentKey or segmentKeys: must not be empty'));
  t.deepEqual((await h.call('POST', path, { json: { rank: 1, segment: { segmentKey: 'beta' }, threshold: { percentage: 1 } } })).json, invalidBody('invalid field segment or threshold: only one can be present'));
  t.deepEqual((await h.call('POST', path, { json: { rank: 1, threshold: 'half' } })).json, invalidBody('invalid field threshold: must be an object'));
});

test('update, order and delete with ids from the path', async (t) => {
  await h.call('POST', '/api/v1/flags', { json: { key: 'ord', name: 'O', type: 1 } });
  const path = '/api/v1/namespaces/default/flags/ord/rollouts';
  const a = (await h.call('POST', path, { json: { rank: 1, threshold: { percentage: 10, value: true } } })).json.id as string;
  const b = (await h.call('POST', path, { json: { rank: 2, segment: { segmentKeys: ['internal', 'beta'], segmentOperator: 'AND_SEGMENT_OPERATOR' } } })).json.id as string;
  const upd = await h.call('PUT', `${path}/${a}`, { json: { id: b, description: 'd', threshold: { percentage: '30', value: false } } });
  t.is(upd.status, 200);
  t.like(upd.json, { id: a, description: 'd', threshold: { percentage: 30, value: false } });
  const noRule = await h.call('PUT', `${path}/${a}`, { json: { description: 'x' } });
  t.deepEqual(noRule.json, invalidBody('invalid field rule: invalid rollout rule type'));
  const tooFew = await h.call('PUT', `${path}/order`, { json: { rolloutIds: [a] } });
  t.deepEqual(tooFew.json, invalidBody('invalid field rolloutIds: must contain atleast 2 elements'));
  const ordered = await h.call('PUT', `${path}/order`, { json: { rollout_ids: [b, a] } });
  t.deepEqual(ordered.json, {});
  t.deepEqual((await h.call('GET', path)).json.rules.map((r: { id: string }) => r.id), [b, a]);
  t.is((await h.call('GET', `${path}/${b}`)).json.rank, 1);
  t.deepEqual((await h.call('DELETE', `${path}/${b}`)).json, {});
  t.is((await h.call('GET', `${path}/${b}`)).status, 404);
});
