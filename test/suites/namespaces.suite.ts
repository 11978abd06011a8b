/** /api/v1/namespaces: CRUD, paging, validation, protection and deletion rules. */
import { assertInvalid, assertNotFound, createNamespace, namespaceState, ok, TIMESTAMP, uniqueKey } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

export function namespacesSuite(test: ApiTest): void {
  test('namespaces: the protected default namespace exists from the first start', async (t) => {
    const res = await t.context.api.get('/api/v1/namespaces/default');
    t.is(res.status, 200);
    t.like(res.body, { key: 'default', name: 'Default', description: 'Default namespace', protected: true });
    t.regex(res.body.createdAt, TIMESTAMP);
    t.regex(res.body.updatedAt, TIMESTAMP);
  });

  test('namespaces: create, get, update, delete', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('crud');
    const created = await api.post('/api/v1/namespaces', { key, name: 'Staging', description: 'pre-production' });
    t.is(created.status, 200);
    t.regex(created.headers.get('content-type') ?? '', /^application\/json/);
    t.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'description', 'key', 'name', 'protected', 'updatedAt']);
    t.like(created.body, { key, name: 'Staging', description: 'pre-production', protected: false });
    t.regex(created.body.createdAt, TIMESTAMP);

    t.deepEqual((await api.get(`/api/v1/namespaces/${key}`)).body, created.body);

    const updated = await api.put(`/api/v1/namespaces/${key}`, { name: 'Staging 2' });
    t.is(updated.status, 200);
    t.like(updated.body, { key, name: 'Staging 2', description: '', protected: false, createdAt: created.body.createdAt });
    t.like((await api.get(`/api/v1/namespaces/${key}`)).body, { name: 'Staging 2', description: '' });

    const deleted = await api.del(`/api/v1/namespaces/${key}`);
    t.is(deleted.status, 200);
    t.deepEqual(deleted.body, {});
    assertNotFound(t, await api.get(`/api/v1/namespaces/${key}`), `namespace "${key}" not found`);
  });

  test('namespaces: keys may hold letters, digits, dash, underscore and comma; a body key on PUT is overridden by the path', async (t) => {
    const { api } = t.context;
    const key = `${uniqueKey('Odd_Key')},v2`;
    t.is((await api.post('/api/v1/namespaces', { key, name: 'odd' })).status, 200);
    const updated = await api.put(`/api/v1/namespaces/${encodeURIComponent(key)}`, { key: 'elsewhere', name: 'odd 2' });
    t.is(updated.status, 200);
    t.is(updated.body.key, key);
    assertNotFound(t, await api.get('/api/v1/namespaces/elsewhere'), 'namespace "elsewhere" not found');
  });

  test.serial('namespaces: list pages with limit and pageToken, in creation order, with totalCount', async (t) => {
    const { api } = t.context;
    const all = ok(await api.get('/api/v1/namespaces'));
    t.is(all.nextPageToken, '');
    t.is(all.totalCount, all.namespaces.length);
    t.is(all.namespaces[0].key, 'default');
    const added = [uniqueKey('page'), uniqueKey('page'), uniqueKey('page')];
    for (const key of added) ok(await api.post('/api/v1/namespaces', { key, name: key }));
    const expected = [...all.namespaces.map((n: { key: string }) => n.key), ...added];

    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = ok(await api.get(`/api/v1/namespaces?limit=2${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`));
      t.true(page.namespaces.length <= 2);
      t.is(page.totalCount, expected.length);
      seen.push(...page.namespaces.map((n: { key: string }) => n.key));
      token = page.nextPageToken;
      pages++;
    } while (token !== '' && pages < 100);
    t.deepEqual(seen, expected);

    const offset = ok(await api.get('/api/v1/namespaces?limit=2&offset=1'));
    t.deepEqual(
      offset.namespaces.map((n: { key: string }) => n.key),
      expected.slice(1, 3),
    );
  });

  test('namespaces: invalid paging parameters are refused', async (t) => {
    const { api } = t.context;
    assertInvalid(t, await api.get('/api/v1/namespaces?limit=1&pageToken=not-a-token'), 'pageToken is not valid: "not-a-token"');
    // COMPAT(flipt): listing namespaces has no "limit must be set" rule (flags, segments and rules do).
    assertInvalid(t, await api.get('/api/v1/namespaces?pageToken=abc'), 'pageToken is not valid: "abc"');
  });

  test('namespaces: bad create and update requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const key = await createNamespace(api, 'badns');
    const before = ok(await api.get(`/api/v1/namespaces/${key}`));
    const noName = uniqueKey('noname');

    assertInvalid(t, await api.post('/api/v1/namespaces', { name: 'no key' }), 'invalid field key: must not be empty');
    assertInvalid(t, await api.post('/api/v1/namespaces', { key: 'has space', name: 'x' }), 'invalid field key: contains invalid characters');
    assertInvalid(t, await api.post('/api/v1/namespaces', { key: 'slash/y', name: 'x' }), 'invalid field key: contains invalid characters');
    assertInvalid(t, await api.post('/api/v1/namespaces', { key: noName }), 'invalid field name: must not be empty');
    assertInvalid(t, await api.post('/api/v1/namespaces', { key, name: 'again' }), `namespace "${key}" is not unique`);
    assertInvalid(t, await api.put(`/api/v1/namespaces/${key}`, { description: 'no name' }), 'invalid field name: must not be empty');
    assertNotFound(t, await api.put('/api/v1/namespaces/ghost-ns-x', { name: 'x' }), 'namespace "ghost-ns-x" not found');
    assertNotFound(t, await api.del('/api/v1/namespaces/never-created-ns'), 'namespace "never-created-ns" not found');

    t.deepEqual(ok(await api.get(`/api/v1/namespaces/${key}`)), before);
    for (const missing of [noName, 'has%20space', 'ghost-ns-x']) {
      t.is((await api.get(`/api/v1/namespaces/${missing}`)).status, 404, missing);
    }
  });

  test('namespaces: the default namespace is protected against deletion', async (t) => {
    const { api } = t.context;
    assertInvalid(t, await api.del('/api/v1/namespaces/default'), 'namespace "default" is protected');
    assertInvalid(t, await api.del('/api/v1/namespaces/default?force=false'), 'namespace "default" is protected');
    t.is((await api.get('/api/v1/namespaces/default')).status, 200);
  });

  test('namespaces: one holding flags is deleted only with force=true, together with its content', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'withflags');
    ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f1', name: 'F1' }));
    ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 's1', name: 'S1' }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.del(`/api/v1/namespaces/${ns}`), `namespace "${ns}" cannot be deleted; flags must be deleted first`);
    t.deepEqual(await namespaceState(api, ns), before);

    const forced = await api.del(`/api/v1/namespaces/${ns}?force=true`);
    t.is(forced.status, 200, forced.text);
    t.deepEqual(forced.body, {});
    assertNotFound(t, await api.get(`/api/v1/namespaces/${ns}`), `namespace "${ns}" not found`);
    t.is((await api.get(`/api/v1/namespaces/${ns}/flags/f1`)).status, 404);

    // The same key can be used again and starts empty.
    ok(await api.post('/api/v1/namespaces', { key: ns, name: 'again' }));
    t.like(ok(await api.get(`/api/v1/namespaces/${ns}/flags`)), { flags: [], totalCount: 0 });
    t.like(ok(await api.get(`/api/v1/namespaces/${ns}/segments`)), { segments: [], totalCount: 0 });
  });

  test('namespaces: one holding only segments is deleted without force', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'segonly');
    ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 's1', name: 'S1' }));
    t.is((await api.del(`/api/v1/namespaces/${ns}`)).status, 200);
    t.is((await api.get(`/api/v1/namespaces/${ns}`)).status, 404);
  });
}
