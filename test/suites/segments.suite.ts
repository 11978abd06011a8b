/** Segments: CRUD, match types, paging, "in use" protection, legacy routes, validation. */
import { assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

export function segmentsSuite(test: ApiTest): void {
  test('segments: create, get, update, delete', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'segments');
    const base = `/api/v1/namespaces/${ns}/segments`;
    const created = await api.post(base, { key: 'beta', name: 'Beta', description: 'beta testers' });
    t.is(created.status, 200, created.text);
    t.deepEqual(Object.keys(created.body).sort(), ['constraints', 'createdAt', 'description', 'key', 'matchType', 'name', 'namespaceKey', 'updatedAt']);
    t.like(created.body, { key: 'beta', name: 'Beta', description: 'beta testers', matchType: 'ALL_MATCH_TYPE', namespaceKey: ns, constraints: [] });
    t.regex(created.body.createdAt, TIMESTAMP);
    t.deepEqual(ok(await api.get(`${base}/beta`)), created.body);

    const any = ok(await api.post(base, { key: 'anyone', name: 'Anyone', matchType: 'ANY_MATCH_TYPE' }));
    t.is(any.matchType, 'ANY_MATCH_TYPE');
    t.is(ok(await api.post(base, { key: 'numeric', name: 'N', matchType: 1 })).matchType, 'ANY_MATCH_TYPE');

    const updated = ok(await api.put(`${base}/beta`, { name: 'Beta 2', matchType: 'ANY_MATCH_TYPE' }));
    t.like(updated, { key: 'beta', name: 'Beta 2', description: '', matchType: 'ANY_MATCH_TYPE', createdAt: created.body.createdAt });
    t.like(ok(await api.get(`${base}/beta`)), { name: 'Beta 2', description: '', matchType: 'ANY_MATCH_TYPE' });

    t.deepEqual(ok(await api.del(`${base}/beta`)), {});
    assertNotFound(t, await api.get(`${base}/beta`), `segment "${ns}/beta" not found`);
    t.deepEqual(ok(await api.del(`${base}/beta`)), {}, 'deleting again is a silent success');
  });

  test('segments: list pages with limit and pageToken, totalCount counts all', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'segpages');
    const keys = ['s1', 's2', 's3', 's4'];
    for (const key of keys) ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key, name: key }));
    const first = ok(await api.get(`/api/v1/namespaces/${ns}/segments?limit=3`));
    t.deepEqual(first.segments.map((s: { key: string }) => s.key), ['s1', 's2', 's3']);
    t.is(first.totalCount, 4);
    t.not(first.nextPageToken, '');
    const second = ok(await api.get(`/api/v1/namespaces/${ns}/segments?limit=3&pageToken=${encodeURIComponent(first.nextPageToken)}`));
    t.deepEqual(second.segments.map((s: { key: string }) => s.key), ['s4']);
    t.is(second.nextPageToken, '');
    t.is(second.totalCount, 4);
    assertInvalid(t, await api.get(`/api/v1/namespaces/${ns}/segments?limit=3&pageToken=bm9wZQ`), /^pageToken is not valid/);
    assertInvalid(t, await api.get(`/api/v1/namespaces/${ns}/segments?pageToken=${encodeURIComponent(first.nextPageToken)}`), 'limit must be set when offset or pageToken is set');
  });

  test('segments: one used by a rule or a rollout cannot be deleted until the reference goes', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'inuse');
    const base = `/api/v1/namespaces/${ns}`;
    ok(await api.post(`${base}/segments`, { key: 'vip', name: 'VIP' }));
    ok(await api.post(`${base}/segments`, { key: 'staff', name: 'Staff' }));
    ok(await api.post(`${base}/flags`, { key: 'color', name: 'Color' }));
    ok(await api.post(`${base}/flags`, { key: 'new-ui', name: 'New UI', type: 'BOOLEAN_FLAG_TYPE' }));
    const rule = ok(await api.post(`${base}/flags/color/rules`, { segmentKey: 'vip', rank: 1 }));
    const rollout = ok(await api.post(`${base}/flags/new-ui/rollouts`, { rank: 1, segment: { segmentKeys: ['staff', 'vip'], value: true } }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.del(`${base}/segments/vip`), `segment "${ns}/vip" is in use`);
    assertInvalid(t, await api.del(`${base}/segments/staff`), `segment "${ns}/staff" is in use`);
    t.deepEqual(await namespaceState(api, ns), before);

    ok(await api.del(`${base}/flags/color/rules/${rule.id}`));
    assertInvalid(t, await api.del(`${base}/segments/vip`), `segment "${ns}/vip" is in use`, 'still used by the rollout');
    ok(await api.del(`${base}/flags/new-ui/rollouts/${rollout.id}`));
    t.deepEqual(ok(await api.del(`${base}/segments/vip`)), {});
    t.deepEqual(ok(await api.del(`${base}/segments/staff`)), {});
    t.is(ok(await api.get(`${base}/segments`)).totalCount, 0);
  });

  test('segments: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'badsegs');
    const base = `/api/v1/namespaces/${ns}/segments`;
    ok(await api.post(base, { key: 'taken', name: 'Taken' }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(base, { name: 'no key' }), 'invalid field key: must not be empty');
    assertInvalid(t, await api.post(base, { key: 'bad key', name: 'x' }), 'invalid field key: contains invalid characters');
    assertInvalid(t, await api.post(base, { key: 'nameless' }), 'invalid field name: must not be empty');
    assertInvalid(t, await api.post(base, { key: 'taken', name: 'again' }), `segment "${ns}/taken" is not unique`);
    assertInvalid(t, await api.post(base, { key: 'm', name: 'M', matchType: 'SOME_MATCH_TYPE' }), naming('matchType'), 'unknown enum name');
    assertInvalid(t, await api.post(base, { key: 'm', name: 'M', description: 42 }), naming('description'), 'number for a string');
    assertInvalid(t, await api.post(base, '{"key":"m","name":"M",}'), /./, 'malformed JSON');
    assertInvalid(t, await api.put(`${base}/taken`, { description: 'x' }), 'invalid field name: must not be empty');
    assertNotFound(t, await api.put(`${base}/ghost`, { name: 'x' }), `segment "${ns}/ghost" not found`);
    assertNotFound(t, await api.post('/api/v1/namespaces/no-such-ns/segments', { key: 'k', name: 'x' }), 'namespace "no-such-ns" not found');

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('segments: legacy routes work on the default namespace', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('legacyseg');
    t.like(ok(await api.post('/api/v1/segments', { key, name: 'L' })), { key, namespaceKey: 'default' });
    t.like(ok(await api.get(`/api/v1/segments/${key}`)), { key, namespaceKey: 'default' });
    t.true(ok(await api.get('/api/v1/segments')).segments.some((s: { key: string }) => s.key === key));
    t.like(ok(await api.put(`/api/v1/segments/${key}`, { name: 'L2' })), { name: 'L2' });
    t.like(ok(await api.get(`/api/v1/namespaces/default/segments/${key}`)), { name: 'L2' });
    t.deepEqual(ok(await api.del(`/api/v1/segments/${key}`)), {});
    assertNotFound(t, await api.get(`/api/v1/segments/${key}`), `segment "default/${key}" not found`);
  });
}
