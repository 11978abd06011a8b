import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  for (const key of ['ns-a', 'ns-b', 'ns-c']) {
    const res = await h.call('POST', '/api/v1/namespaces', { json: { key, name: key.toUpperCase() } });
    if (res.status !== 200) throw new Error(`seeding ${key}: ${res.text}`);
  }
});
test.after.always(() => h?.close());

const token = (key: string, offset: number) => Buffer.from(JSON.stringify({ key, offset })).toString('base64');

test('create answers 200 with the namespace', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', { json: { key: 'created', name: 'Created', description: 'd' } });
  t.is(res.status, 200);
  t.like(res.json, { key: 'created', name: 'Created', description: 'd', protected: false });
});

test('create validates the key', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', { json: { key: 'bad key', name: 'x' } });
  t.is(res.status, 400);
  t.deepEqual(res.json, invalidBody('invalid field key: contains invalid characters'));
});

test('update takes the key from the path, not the body', async (t) => {
  const res = await h.call('PUT', '/api/v1/namespaces/ns-b', { json: { key: 'ns-a', name: 'Renamed', description: 'new' } });
  t.is(res.status, 200);
  t.like(res.json, { key: 'ns-b', name: 'Renamed', description: 'new' });
  t.is((await h.call('GET', '/api/v1/namespaces/ns-a')).json.name, 'NS-A');
});

test('list pages with limit and a page token', async (t) => {
  const all = await h.call('GET', '/api/v1/namespaces');
  const keys: string[] = all.json.namespaces.map((n: { key: string }) => n.key);
  t.is(all.json.nextPageToken, '');
  t.is(all.json.totalCount, keys.length);
  t.true(keys.length >= 4);

  const first = await h.call('GET', '/api/v1/namespaces?limit=2');
  t.deepEqual(first.json.namespaces.map((n: { key: string }) => n.key), keys.slice(0, 2));
  t.is(first.json.totalCount, keys.length);
  t.is(first.json.nextPageToken, token(keys[1]!, 2));

  const second = await h.call('GET', `/api/v1/namespaces?limit=2&page_token=${encodeURIComponent(first.json.nextPageToken)}`);
  t.deepEqual(second.json.namespaces.map((n: { key: string }) => n.key), keys.slice(2, 4));

  const byOffset = await h.call('GET', '/api/v1/namespaces?limit=1&offset=1');
  t.deepEqual(byOffset.json.namespaces.map((n: { key: string }) => n.key), [keys[1]]);
});

test('a bad page token is a 400 quoting it', async (t) => {
  const res = await h.call('GET', '/api/v1/namespaces?limit=1&pageToken=nope');
  t.is(res.status, 400);
  t.deepEqual(res.json, invalidBody('pageToken is not valid: "nope"'));
});

test('a bad limit is a 400 naming it', async (t) => {
  const res = await h.call('GET', '/api/v1/namespaces?limit=ten');
  t.deepEqual(res.json, invalidBody('invalid field limit: must be an integer'));
  const negative = await h.call('GET', '/api/v1/namespaces?limit=-1');
  t.deepEqual(negative.json, invalidBody('invalid field limit: must be greater than or equal to 0'));
});

test('delete: protected default refused without force, 404 when missing, {} on success', async (t) => {
  const protectedRes = await h.call('DELETE', '/api/v1/namespaces/default');
  t.is(protectedRes.status, 400);
  t.deepEqual(protectedRes.json, invalidBody('namespace "default" is protected'));
  const missing = await h.call('DELETE', '/api/v1/namespaces/missing');
  t.is(missing.status, 404);
  t.deepEqual(missing.json, { code: 5, message: 'namespace "missing" not found', details: [] });
  const ok = await h.call('DELETE', '/api/v1/namespaces/ns-c');
  t.is(ok.status, 200);
  t.deepEqual(ok.json, {});
});

test('delete with ?force=true removes a namespace that still has flags', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'doomed', name: 'D' } });
  await h.call('POST', '/api/v1/namespaces/doomed/flags', { json: { key: 'f', name: 'F' } });
  const refused = await h.call('DELETE', '/api/v1/namespaces/doomed');
  t.is(refused.status, 400);
  t.is(refused.json.message, 'namespace "doomed" cannot be deleted; flags must be deleted first');
  const badForce = await h.call('DELETE', '/api/v1/namespaces/doomed?force=maybe');
  t.deepEqual(badForce.json, invalidBody('invalid field force: must be a boolean'));
  const forced = await h.call('DELETE', '/api/v1/namespaces/doomed?force=true');
  t.is(forced.status, 200);
  t.deepEqual(forced.json, {});
  t.is((await h.call('GET', '/api/v1/namespaces/doomed')).status, 404);
});
