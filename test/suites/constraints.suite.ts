/** Constraints: every comparison type, operator and value normalisation, validation. */
import { assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey, UUID } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

interface Case {
  input: Record<string, unknown>;
  stored: Record<string, unknown>;
}

/** One accepted constraint per comparison type and normalisation rule. */
const ACCEPTED: Case[] = [
  { input: { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }, stored: { type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'pro' } },
  { input: { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'SUFFIX', value: '@example.com' }, stored: { operator: 'suffix', value: '@example.com' } },
  { input: { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["pro","team"]' }, stored: { operator: 'isoneof', value: '["pro","team"]' } },
  { input: { type: 'STRING_COMPARISON_TYPE', property: 'nick', operator: 'empty', value: 'ignored' }, stored: { operator: 'empty', value: '' } },
  { input: { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }, stored: { type: 'NUMBER_COMPARISON_TYPE', operator: 'gte', value: '18' } },
  { input: { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'isnotoneof', value: '[1, 2.5]' }, stored: { operator: 'isnotoneof' } },
  { input: { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'notpresent', value: '3' }, stored: { operator: 'notpresent', value: '' } },
  { input: { type: 'BOOLEAN_COMPARISON_TYPE', property: 'admin', operator: 'TRUE', value: 'x' }, stored: { type: 'BOOLEAN_COMPARISON_TYPE', operator: 'true', value: '' } },
  { input: { type: 'BOOLEAN_COMPARISON_TYPE', property: 'admin', operator: 'present' }, stored: { operator: 'present', value: '' } },
  {
    input: { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'gt', value: '2024-03-01T10:20:30.123+02:00' },
    stored: { type: 'DATETIME_COMPARISON_TYPE', operator: 'gt', value: '2024-03-01T08:20:30Z' },
  },
  { input: { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'lte', value: '2024-12-31' }, stored: { value: '2024-12-31' } },
  { input: { type: 4, property: 'signup', operator: 'eq', value: '2025-01-02T03:04:05Z' }, stored: { type: 'DATETIME_COMPARISON_TYPE', value: '2025-01-02T03:04:05Z' } },
  {
    input: { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'isoneof', value: '["u1","u2"]' },
    stored: { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'isoneof', value: '["u1","u2"]' },
  },
];

export function constraintsSuite(test: ApiTest): void {
  test('constraints: every comparison type is stored with the operator lower-cased and the value normalised', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'constraints');
    const seg = `/api/v1/namespaces/${ns}/segments/users`;
    ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 'users', name: 'Users' }));

    const ids: string[] = [];
    for (const { input, stored } of ACCEPTED) {
      const res = await api.post(`${seg}/constraints`, { ...input, description: 'd' });
      t.is(res.status, 200, `${JSON.stringify(input)} → ${res.text}`);
      t.like(res.body, { ...stored, segmentKey: 'users', namespaceKey: ns, description: 'd' }, JSON.stringify(input));
      t.regex(res.body.id, UUID);
      t.regex(res.body.createdAt, TIMESTAMP);
      ids.push(res.body.id);
    }
    t.deepEqual(Object.keys((await api.get(seg)).body.constraints[0]).sort(), [
      'createdAt',
      'description',
      'id',
      'namespaceKey',
      'operator',
      'property',
      'segmentKey',
      'type',
      'updatedAt',
      'value',
    ]);
    const segment = ok(await api.get(seg));
    t.deepEqual(segment.constraints.map((c: { id: string }) => c.id), ids, 'embedded in creation order');
  });

  test('constraints: update replaces the constraint; delete removes it', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'putconstraint');
    const seg = `/api/v1/namespaces/${ns}/segments/users`;
    ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 'users', name: 'Users' }));
    const c = ok(await api.post(`${seg}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: 'd' }));

    const updated = ok(await api.put(`${seg}/constraints/${c.id}`, { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'LT', value: '65' }));
    t.like(updated, { id: c.id, type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'lt', value: '65', description: '', segmentKey: 'users', namespaceKey: ns });
    t.like(ok(await api.get(seg)).constraints[0], { id: c.id, property: 'age', operator: 'lt', value: '65' });

    t.deepEqual(ok(await api.del(`${seg}/constraints/${c.id}`)), {});
    t.deepEqual(ok(await api.get(seg)).constraints, []);
    t.deepEqual(ok(await api.del(`${seg}/constraints/${c.id}`)), {}, 'deleting again is a silent success');
  });

  test('constraints: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const ns = await createNamespace(api, 'badconstraints');
    const seg = `/api/v1/namespaces/${ns}/segments/users`;
    ok(await api.post(`/api/v1/namespaces/${ns}/segments`, { key: 'users', name: 'Users' }));
    const existing = ok(await api.post(`${seg}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }));
    const before = await namespaceState(api, ns);
    const post = (body: unknown) => api.post(`${seg}/constraints`, body);
    const str = { type: 'STRING_COMPARISON_TYPE', property: 'plan' };

    assertInvalid(t, await post({ ...str, operator: 'eq' }), 'invalid field value: must not be empty');
    assertInvalid(t, await post({ type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'x' }), 'invalid field property: must not be empty');
    assertInvalid(t, await post({ ...str, value: 'x' }), 'invalid field operator: must not be empty');
    assertInvalid(t, await post({ ...str, operator: 'gt', value: 'x' }), 'constraint operator "gt" is not valid for type string');
    assertInvalid(t, await post({ type: 'NUMBER_COMPARISON_TYPE', property: 'n', operator: 'prefix', value: '1' }), 'constraint operator "prefix" is not valid for type number');
    assertInvalid(t, await post({ type: 'BOOLEAN_COMPARISON_TYPE', property: 'b', operator: 'eq', value: 'true' }), 'constraint operator "eq" is not valid for type boolean');
    assertInvalid(t, await post({ type: 'DATETIME_COMPARISON_TYPE', property: 'd', operator: 'prefix', value: '2024-01-01' }), 'constraint operator "prefix" is not valid for type datetime');
    assertInvalid(t, await post({ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'gt', value: 'a' }), 'constraint operator "gt" is not valid for type entityId');
    assertInvalid(t, await post({ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'user', operator: 'eq', value: 'a' }), 'property is user instead of "entityId"');
    assertInvalid(t, await post({ property: 'plan', operator: 'eq', value: 'x' }), 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"');
    assertInvalid(t, await post({ ...str, type: 'COLOR_COMPARISON_TYPE', operator: 'eq', value: 'x' }), naming('type'), 'unknown enum name');
    assertInvalid(t, await post({ type: 'DATETIME_COMPARISON_TYPE', property: 'd', operator: 'eq', value: 'yesterday' }), 'parsing datetime from "yesterday"');
    assertInvalid(t, await post({ ...str, operator: 'isoneof', value: 'pro,team' }), 'invalid value provided for property "plan" of type string');
    assertInvalid(
      t,
      await post({ type: 'NUMBER_COMPARISON_TYPE', property: 'n', operator: 'isoneof', value: '["a"]' }),
      'invalid value provided for property "n" of type number',
    );
    assertInvalid(
      t,
      await post({ ...str, operator: 'isoneof', value: JSON.stringify(Array.from({ length: 101 }, (_, i) => `v${i}`)) }),
      'too many values provided for property "plan" of type string (maximum 100)',
    );
    assertInvalid(t, await post({ ...str, operator: 'eq', value: 5 }), naming('value'), 'number for a string');
    assertInvalid(t, await api.put(`${seg}/constraints/${existing.id}`, { ...str, operator: 'neq' }), 'invalid field value: must not be empty');
    assertNotFound(t, await api.put(`${seg}/constraints/00000000-0000-4000-8000-000000000000`, { ...str, operator: 'eq', value: 'x' }), 'constraint "00000000-0000-4000-8000-000000000000" not found');
    assertNotFound(t, await api.post(`/api/v1/namespaces/${ns}/segments/ghost/constraints`, { ...str, operator: 'eq', value: 'x' }), `segment "${ns}/ghost" not found`);

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('constraints: legacy routes work on the default namespace', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('legacycons');
    ok(await api.post('/api/v1/segments', { key, name: 'L' }));
    const c = ok(await api.post(`/api/v1/segments/${key}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'NEQ', value: 'v' }));
    t.like(c, { namespaceKey: 'default', segmentKey: key, operator: 'neq' });
    t.like(ok(await api.put(`/api/v1/segments/${key}/constraints/${c.id}`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'w' })), { value: 'w' });
    t.deepEqual(ok(await api.del(`/api/v1/segments/${key}/constraints/${c.id}`)), {});
    t.deepEqual(ok(await api.get(`/api/v1/segments/${key}`)).constraints, []);
    ok(await api.del(`/api/v1/segments/${key}`));
  });
}
