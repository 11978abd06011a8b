/**
 * Read-only mode through the HTTP app: every management write answers Flipt's 500 after the
 * request's own validation, reads and the change history keep working, nothing is written.
 */
import test from 'ava';
import { READ_ONLY_MESSAGE, readOnlyStore } from '../../src/declarative/index.js';
import { type Harness, startHarness } from '../harness.js';

const READ_ONLY = { code: 13, message: READ_ONLY_MESSAGE, details: [] };

let h: Harness;
test.before(async () => {
  h = await startHarness({ wrapStore: (store) => readOnlyStore(store) });
  // Seeded underneath the guard, as declarative storage writes.
  await h.store.namespaces.create({ key: 'shop', name: 'Shop', description: '' });
  await h.store.flags.create({ namespaceKey: 'shop', key: 'color', name: 'Color', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
  await h.store.segments.create({ namespaceKey: 'shop', key: 'pro', name: 'Pro', description: '', matchType: 'ALL_MATCH_TYPE' });
});
test.after.always(() => h.close());

test('every kind of write is refused with Flipt\'s read-only error', async (t) => {
  const writes: Array<[string, string, unknown]> = [
    ['POST', '/api/v1/namespaces', { key: 'other', name: 'Other' }],
    ['PUT', '/api/v1/namespaces/shop', { name: 'Renamed' }],
    ['DELETE', '/api/v1/namespaces/shop', undefined],
    ['POST', '/api/v1/namespaces/shop/flags', { key: 'new-ui', name: 'New UI', type: 'BOOLEAN_FLAG_TYPE' }],
    ['PUT', '/api/v1/namespaces/shop/flags/color', { name: 'Colour' }],
    ['DELETE', '/api/v1/namespaces/shop/flags/color', undefined],
    ['DELETE', '/api/v1/namespaces/shop/flags/missing', undefined],
    ['POST', '/api/v1/namespaces/shop/flags/color/variants', { key: 'blue' }],
    ['POST', '/api/v1/namespaces/shop/segments', { key: 'vip', name: 'VIP', matchType: 'ANY_MATCH_TYPE' }],
    ['POST', '/api/v1/namespaces/shop/segments/pro/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }],
    ['POST', '/api/v1/namespaces/shop/flags/color/rules', { segmentKey: 'pro', rank: 1 }],
    ['PUT', '/api/v1/namespaces/shop/flags/color/rules/order', { ruleIds: ['a', 'b'] }],
    ['POST', '/api/v1/flags', { key: 'legacy-route', name: 'Legacy' }],
  ];
  for (const [method, path, json] of writes) {
    const reply = await h.call(method, path, json === undefined ? {} : { json });
    t.is(reply.status, 500, `${method} ${path}: ${reply.text}`);
    t.deepEqual(reply.json, READ_ONLY, `${method} ${path}`);
  }
  const imported = await h.call('POST', '/api/v1/namespaces/shop/import', { body: 'namespace: shop\nflags: []\n', headers: { 'content-type': 'application/yaml' } });
  t.is(imported.status, 500, imported.text);
  t.deepEqual(imported.json, READ_ONLY);
  t.deepEqual((await h.store.flags.list('shop', { limit: 10, offset: 0 })).items.map((f) => f.key), ['color'], 'nothing was written');
});

test('a request that is invalid is its 400 first, as in Flipt', async (t) => {
  const noKey = await h.call('POST', '/api/v1/namespaces/shop/flags', { json: { name: 'No key', type: 'BOOLEAN_FLAG_TYPE' } });
  t.is(noKey.status, 400);
  t.regex(noKey.json.message, /key/);
  const badType = await h.call('POST', '/api/v1/namespaces/shop/segments', { json: { key: 'x', name: 'X', matchType: 'SOMETIMES' } });
  t.is(badType.status, 400);
});

test('reads, lists and the change history keep working', async (t) => {
  t.is((await h.call('GET', '/api/v1/namespaces/shop/flags/color')).json.name, 'Color');
  t.deepEqual((await h.call('GET', '/api/v1/namespaces')).json.namespaces.map((n: { key: string }) => n.key), ['default', 'shop']);
  t.is((await h.call('GET', '/api/v1/namespaces/shop/segments')).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/shop/audit/events')).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/shop/export')).status, 200);
  t.deepEqual((await h.call('GET', '/health')).json, { status: 'SERVING' });
});
