/** `GET /api/v1/namespaces/{ns}/export`: a namespace as a Flipt 1.4 document, YAML by default. */
import test from 'ava';
import { parse } from 'yaml';
import { seedShop, shopDocument } from './documents-seed.js';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  await seedShop(h.call, 'shop');
});
test.after.always(() => h?.close());

test('a namespace exports as a YAML download, in Flipt\'s format and creation order', async (t) => {
  const res = await h.call('GET', '/api/v1/namespaces/shop/export');
  t.is(res.status, 200, res.text);
  t.is(res.headers.get('content-type'), 'application/yaml');
  t.is(res.headers.get('content-disposition'), 'attachment; filename="shop.yaml"');
  t.true(res.text.startsWith('version: "1.4"\nnamespace:\n  key: shop\n'), res.text);
  t.true(res.text.includes('\nflags:\n- key: checkout\n'), 'lists are not indented under their key, as Flipt writes them');
  t.deepEqual(parse(res.text), shopDocument('shop'));
});

test('JSON when asked for by Accept or ?format=json', async (t) => {
  for (const [path, headers] of [
    ['/api/v1/namespaces/shop/export', { Accept: 'application/json' }],
    ['/api/v1/namespaces/shop/export?format=json', {}],
  ] as const) {
    const res = await h.call('GET', path, { headers });
    t.is(res.status, 200, res.text);
    t.is(res.headers.get('content-type'), 'application/json');
    t.is(res.headers.get('content-disposition'), 'attachment; filename="shop.json"');
    t.deepEqual(res.json, shopDocument('shop'));
  }
  const yaml = await h.call('GET', '/api/v1/namespaces/shop/export?format=yaml', { headers: { Accept: 'application/json' } });
  t.is(yaml.headers.get('content-type'), 'application/yaml', 'the query wins over Accept');
  const browser = await h.call('GET', '/api/v1/namespaces/shop/export', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  t.is(browser.headers.get('content-type'), 'application/yaml');
});

test('?sortByKey=true orders flags, segments and variants by key', async (t) => {
  const sorted = parse((await h.call('GET', '/api/v1/namespaces/shop/export?sortByKey=true')).text);
  t.deepEqual(sorted.flags.map((f: { key: string }) => f.key), ['banner', 'checkout']);
  const unsorted = parse((await h.call('GET', '/api/v1/namespaces/shop/export?sort_by_key=false')).text);
  t.deepEqual(unsorted.flags.map((f: { key: string }) => f.key), ['checkout', 'banner']);
});

test('an empty namespace exports its namespace only; the default one too', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'empty', name: 'Empty' } });
  t.deepEqual(parse((await h.call('GET', '/api/v1/namespaces/empty/export')).text), { version: '1.4', namespace: { key: 'empty', name: 'Empty' } });
  t.like(parse((await h.call('GET', '/api/v1/namespaces/default/export')).text), { version: '1.4', namespace: { key: 'default', name: 'Default' } });
});

test('an unknown namespace is a 404; bad options are 400s naming them', async (t) => {
  const missing = await h.call('GET', '/api/v1/namespaces/nope/export');
  t.is(missing.status, 404);
  t.deepEqual(missing.json, { code: 5, message: 'namespace "nope" not found', details: [] });
  t.deepEqual((await h.call('GET', '/api/v1/namespaces/shop/export?format=xml')).json, invalidBody('invalid field format: must be yaml or json'));
  t.deepEqual((await h.call('GET', '/api/v1/namespaces/shop/export?sortByKey=yes')).json, invalidBody('invalid field sortByKey: must be a boolean'));
  t.is((await h.call('DELETE', '/api/v1/namespaces/shop/export')).status, 501);
});
