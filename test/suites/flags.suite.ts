/** Flags: VARIANT and BOOLEAN types, metadata, default variant, full-replace PUT, paging, validation. */
import { assertError, assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

export function flagsSuite(test: ApiTest): void {
  test('flags: create a VARIANT flag (the default type), get it, list it', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'flags');
    const created = await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'color', name: 'Color', description: 'button color', enabled: true });
    t.is(created.status, 200, created.text);
    t.like(created.body, {
      key: 'color',
      name: 'Color',
      description: 'button color',
      enabled: true,
      namespaceKey: ns,
      type: 'VARIANT_FLAG_TYPE',
      variants: [],
    });
    t.regex(created.body.createdAt, TIMESTAMP);
    t.regex(created.body.updatedAt, TIMESTAMP);
    t.false('defaultVariant' in created.body);

    const got = ok(await api.get(`/api/v1/namespaces/${ns}/flags/color`));
    t.like(got, { key: 'color', name: 'Color', enabled: true, type: 'VARIANT_FLAG_TYPE', variants: [], namespaceKey: ns });
    // COMPAT(flipt): GET omits unset metadata, the list shows it as {}.
    t.false('metadata' in got);
    t.false('defaultVariant' in got);

    const list = ok(await api.get(`/api/v1/namespaces/${ns}/flags`));
    t.is(list.totalCount, 1);
    t.is(list.nextPageToken, '');
    t.like(list.flags[0], { key: 'color', metadata: {} });
  });

  test('flags: a BOOLEAN flag by name or by enum number, zero values emitted', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'boolflags');
    const byName = ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'new-ui', name: 'New UI', type: 'BOOLEAN_FLAG_TYPE' }));
    t.like(byName, { type: 'BOOLEAN_FLAG_TYPE', enabled: false, description: '', variants: [] });
    const byNumber = ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'dark', name: 'Dark', type: 1, enabled: true }));
    t.like(byNumber, { type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    t.is(ok(await api.get(`/api/v1/namespaces/${ns}/flags/dark`)).type, 'BOOLEAN_FLAG_TYPE');
  });

  test('flags: metadata is stored as a JSON object, kept when PUT omits it, cleared by {}', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'meta');
    const metadata = { team: 'web', tier: 2, tags: ['a', 'b'], nested: { on: true } };
    t.deepEqual(ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'm', name: 'M', metadata })).metadata, metadata);
    t.deepEqual(ok(await api.get(`/api/v1/namespaces/${ns}/flags/m`)).metadata, metadata);

    t.deepEqual(ok(await api.put(`/api/v1/namespaces/${ns}/flags/m`, { name: 'M2' })).metadata, metadata);
    t.deepEqual(ok(await api.get(`/api/v1/namespaces/${ns}/flags/m`)).metadata, metadata);

    const replaced = { owner: 'payments' };
    t.deepEqual(ok(await api.put(`/api/v1/namespaces/${ns}/flags/m`, { name: 'M2', metadata: replaced })).metadata, replaced);

    ok(await api.put(`/api/v1/namespaces/${ns}/flags/m`, { name: 'M2', metadata: {} }));
    t.deepEqual(ok(await api.get(`/api/v1/namespaces/${ns}/flags/m`)).metadata ?? {}, {});

    assertInvalid(t, await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'bad', name: 'B', metadata: 'team=web' }), naming('metadata'));
  });

  test('flags: PUT replaces name, description, enabled and defaultVariant; type and key stay', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'putflag');
    const base = `/api/v1/namespaces/${ns}/flags`;
    ok(await api.post(base, { key: 'f', name: 'F', description: 'd', enabled: true }));
    const blue = ok(await api.post(`${base}/f/variants`, { key: 'blue' }));
    const red = ok(await api.post(`${base}/f/variants`, { key: 'red', name: 'Red', attachment: '{"hex":"#f00"}' }));

    const withDefault = ok(await api.put(`${base}/f`, { name: 'F', description: 'd', enabled: true, defaultVariantId: red.id }));
    t.like(withDefault.defaultVariant, { id: red.id, key: 'red', name: 'Red', attachment: '{"hex":"#f00"}', flagKey: 'f', namespaceKey: ns });
    t.like(ok(await api.get(`${base}/f`)).defaultVariant, { id: red.id, key: 'red' });

    // snake_case field names are accepted as well (protobuf JSON).
    t.is(ok(await api.put(`${base}/f`, { name: 'F', enabled: true, default_variant_id: blue.id })).defaultVariant.id, blue.id);

    const replaced = ok(await api.put(`${base}/f`, { key: 'other', name: 'Renamed', type: 'BOOLEAN_FLAG_TYPE' }));
    t.like(replaced, { key: 'f', name: 'Renamed', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE' });
    t.false('defaultVariant' in replaced);
    const got = ok(await api.get(`${base}/f`));
    t.like(got, { key: 'f', name: 'Renamed', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE' });
    t.false('defaultVariant' in got);
    t.is(got.variants.length, 2);
    t.is((await api.get(`${base}/other`)).status, 404);
  });

  test('flags: a default variant must belong to the flag', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'defvar');
    const base = `/api/v1/namespaces/${ns}/flags`;
    ok(await api.post(base, { key: 'a', name: 'A' }));
    ok(await api.post(base, { key: 'b', name: 'B' }));
    const foreign = ok(await api.post(`${base}/b/variants`, { key: 'x' }));
    const before = await namespaceState(api, ns);
    assertInvalid(t, await api.put(`${base}/a`, { name: 'A', defaultVariantId: foreign.id }), `variant "${foreign.id}" not found for flag "${ns}/a"`);
    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('flags: list pages with limit and pageToken in creation order, totalCount counts all', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'flagpages');
    const keys = ['f1', 'f2', 'f3', 'f4', 'f5'];
    for (const key of keys) ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key, name: key }));

    const seen: string[] = [];
    let token = '';
    const sizes: number[] = [];
    do {
      const query = `limit=2${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
      const page = ok(await api.get(`/api/v1/namespaces/${ns}/flags?${query}`));
      t.is(page.totalCount, 5);
      sizes.push(page.flags.length);
      seen.push(...page.flags.map((f: { key: string }) => f.key));
      token = page.nextPageToken;
    } while (token !== '' && sizes.length < 10);
    t.deepEqual(sizes, [2, 2, 1]);
    t.deepEqual(seen, keys);

    const all = ok(await api.get(`/api/v1/namespaces/${ns}/flags?limit=0`));
    t.deepEqual(all.flags.map((f: { key: string }) => f.key), keys);
    t.is(all.nextPageToken, '');
    const offset = ok(await api.get(`/api/v1/namespaces/${ns}/flags?limit=2&offset=3`));
    t.deepEqual(offset.flags.map((f: { key: string }) => f.key), ['f4', 'f5']);

    assertInvalid(t, await api.get(`/api/v1/namespaces/${ns}/flags?limit=2&pageToken=%%%`), /^pageToken is not valid/);
    assertInvalid(t, await api.get(`/api/v1/namespaces/${ns}/flags?offset=2`), 'limit must be set when offset or pageToken is set');
  });

  test('flags: delete removes the flag; deleting a missing flag is a silent success', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'delflag');
    ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'gone', name: 'Gone' }));
    t.deepEqual(ok(await api.del(`/api/v1/namespaces/${ns}/flags/gone`)), {});
    assertNotFound(t, await api.get(`/api/v1/namespaces/${ns}/flags/gone`), `flag "${ns}/gone" not found`);
    t.deepEqual(ok(await api.del(`/api/v1/namespaces/${ns}/flags/gone`)), {});
    t.is(ok(await api.get(`/api/v1/namespaces/${ns}/flags`)).totalCount, 0);
  });

  test('flags: bodies are JSON whatever the Content-Type; unknown fields are ignored', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'ctype');
    const plain = await api.post(`/api/v1/namespaces/${ns}/flags`, JSON.stringify({ key: 'p', name: 'Plain' }), { 'Content-Type': 'text/plain' });
    t.is(plain.status, 200, plain.text);
    t.is(plain.body.key, 'p');
    const extra = await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'q', name: 'Q', color: 'blue', nested: { a: 1 } });
    t.is(extra.status, 200, extra.text);
    t.false('color' in extra.body);
  });

  test('flags: bad requests are refused by field and leave the namespace as it was', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'badflags');
    const base = `/api/v1/namespaces/${ns}/flags`;
    ok(await api.post(base, { key: 'taken', name: 'Taken', enabled: true }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(base, '{"key": "x", "name": '), /./, 'malformed JSON');
    assertInvalid(t, await api.post(base, '[1, 2]'), /./, 'array body');
    assertInvalid(t, await api.post(base, { name: 'no key' }), 'invalid field key: must not be empty');
    assertInvalid(t, await api.post(base, { key: 'a b', name: 'x' }), 'invalid field key: contains invalid characters');
    assertInvalid(t, await api.post(base, { key: 'nameless' }), 'invalid field name: must not be empty');
    assertInvalid(t, await api.post(base, { key: 'taken', name: 'again' }), `flag "${ns}/taken" is not unique`);
    assertInvalid(t, await api.post(base, { key: 5, name: 'x' }), naming('key'), 'number for a string');
    assertInvalid(t, await api.post(base, { key: 'k', name: 'x', enabled: 'yes' }), naming('enabled'), 'string for a bool');
    assertInvalid(t, await api.post(base, { key: 'k', name: 'x', type: 'TOGGLE_FLAG_TYPE' }), naming('type'), 'unknown enum name');
    assertInvalid(t, await api.put(`${base}/taken`, { description: 'no name' }), 'invalid field name: must not be empty');
    assertInvalid(t, await api.put(`${base}/taken`, { name: ['x'] }), naming('name'), 'list for a string');
    assertNotFound(t, await api.put(`${base}/missing`, { name: 'x' }), `flag "${ns}/missing" not found`);
    assertNotFound(t, await api.get(`${base}/missing`), `flag "${ns}/missing" not found`);
    assertNotFound(t, await api.post('/api/v1/namespaces/no-such-ns/flags', { key: 'k', name: 'x' }), 'namespace "no-such-ns" not found');

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('flags: a body larger than server.body_limit (1 MiB) is refused with 413 and nothing is stored', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'bigbody');
    const before = await namespaceState(api, ns);
    const res = await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'big', name: 'Big', description: 'x'.repeat(1_100_000) });
    assertError(t, res, { status: 413, code: 3, message: /body/ });
    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('flags: legacy routes without the namespace work on the default namespace', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('legacy');
    const created = ok(await api.post('/api/v1/flags', { key, name: 'Legacy', enabled: true }));
    t.is(created.namespaceKey, 'default');
    t.like(ok(await api.get(`/api/v1/namespaces/default/flags/${key}`)), { key, name: 'Legacy' });
    t.like(ok(await api.get(`/api/v1/flags/${key}`)), { key, namespaceKey: 'default' });
    t.true(ok(await api.get('/api/v1/flags')).flags.some((f: { key: string }) => f.key === key));
    t.like(ok(await api.put(`/api/v1/flags/${key}`, { name: 'Legacy 2' })), { name: 'Legacy 2', enabled: false });
    assertInvalid(t, await api.post('/api/v1/flags', { key, name: 'dup' }), `flag "default/${key}" is not unique`);
    t.deepEqual(ok(await api.del(`/api/v1/flags/${key}`)), {});
    assertNotFound(t, await api.get(`/api/v1/flags/${key}`), `flag "default/${key}" not found`);
  });
}
