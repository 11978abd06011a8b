/** Rules and their distributions: segment conventions, rank and order, paging, validation. */
import { assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey, UUID } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';
import type { JsonClient } from '@ensign/testkit';

/** A namespace with a variant flag `color` (variants blue, red), segments a, b, c. */
async function ruleFixture(api: JsonClient, prefix: string) {
  const ns = await createNamespace(api, prefix);
  const base = `/api/v1/namespaces/${ns}`;
  ok(await api.post(`${base}/flags`, { key: 'color', name: 'Color', enabled: true }));
  const blue = ok(await api.post(`${base}/flags/color/variants`, { key: 'blue' }));
  const red = ok(await api.post(`${base}/flags/color/variants`, { key: 'red' }));
  for (const key of ['a', 'b', 'c']) ok(await api.post(`${base}/segments`, { key, name: key.toUpperCase() }));
  return { ns, base, rules: `${base}/flags/color/rules`, blue, red };
}

const ids = (list: Array<{ id: string }>) => list.map((r) => r.id);

export function rulesSuite(test: ApiTest): void {
  test('rules: one segment is reported in segmentKey, several in segmentKeys', async (t) => {
    const { api } = t.context;
    const { ns, rules } = await ruleFixture(api, 'rules');

    const single = await api.post(rules, { segmentKey: 'a', rank: 1 });
    t.is(single.status, 200, single.text);
    t.deepEqual(Object.keys(single.body).sort(), ['createdAt', 'distributions', 'flagKey', 'id', 'namespaceKey', 'rank', 'segmentKey', 'segmentKeys', 'segmentOperator', 'updatedAt']);
    t.like(single.body, { flagKey: 'color', namespaceKey: ns, segmentKey: 'a', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1, distributions: [] });
    t.regex(single.body.id, UUID);
    t.regex(single.body.createdAt, TIMESTAMP);

    const multi = ok(await api.post(rules, { segmentKeys: ['b', 'c'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 }));
    t.like(multi, { segmentKey: '', segmentKeys: ['b', 'c'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });

    // Duplicates are dropped; a single remaining key is reported as segmentKey with OR.
    const deduped = ok(await api.post(rules, { segmentKeys: ['c', 'c'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 3 }));
    t.like(deduped, { segmentKey: 'c', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
    const kept = ok(await api.post(rules, { segmentKeys: ['c', 'a', 'c'], segmentOperator: 1, rank: 4 }));
    t.like(kept, { segmentKey: '', segmentKeys: ['c', 'a'], segmentOperator: 'AND_SEGMENT_OPERATOR' });

    t.deepEqual(ok(await api.get(`${rules}/${multi.id}`)), multi);
  });

  test('rules: update changes the segments but not the rank', async (t) => {
    const { api } = t.context;
    const { rules } = await ruleFixture(api, 'putrule');
    const r1 = ok(await api.post(rules, { segmentKey: 'a', rank: 1 }));
    const updated = ok(await api.put(`${rules}/${r1.id}`, { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 7 }));
    t.like(updated, { id: r1.id, segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 });
    t.like(ok(await api.put(`${rules}/${r1.id}`, { segmentKey: 'c' })), { segmentKey: 'c', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    t.like(ok(await api.get(`${rules}/${r1.id}`)), { segmentKey: 'c', rank: 1 });
  });

  test('rules: list by rank with paging; order assigns ranks; delete renumbers', async (t) => {
    const { api } = t.context;
    const { rules } = await ruleFixture(api, 'orderrules');
    const r1 = ok(await api.post(rules, { segmentKey: 'a', rank: 1 }));
    const r3 = ok(await api.post(rules, { segmentKey: 'c', rank: 3 }));
    const r2 = ok(await api.post(rules, { segmentKey: 'b', rank: 2 }));

    const list = ok(await api.get(rules));
    t.deepEqual(ids(list.rules), [r1.id, r2.id, r3.id]);
    t.is(list.totalCount, 3);
    t.is(list.nextPageToken, '');
    const page1 = ok(await api.get(`${rules}?limit=2`));
    t.deepEqual(ids(page1.rules), [r1.id, r2.id]);
    t.is(page1.totalCount, 3);
    const page2 = ok(await api.get(`${rules}?limit=2&pageToken=${encodeURIComponent(page1.nextPageToken)}`));
    t.deepEqual(ids(page2.rules), [r3.id]);
    t.is(page2.nextPageToken, '');
    assertInvalid(t, await api.get(`${rules}?offset=1`), 'limit must be set when offset or pageToken is set');

    t.deepEqual(ok(await api.put(`${rules}/order`, { ruleIds: [r3.id, r1.id, r2.id] })), {});
    const ordered = ok(await api.get(rules)).rules;
    t.deepEqual(ids(ordered), [r3.id, r1.id, r2.id]);
    t.deepEqual(ordered.map((r: { rank: number }) => r.rank), [1, 2, 3]);

    t.deepEqual(ok(await api.del(`${rules}/${r3.id}`)), {});
    const renumbered = ok(await api.get(rules)).rules;
    t.deepEqual(ids(renumbered), [r1.id, r2.id]);
    t.deepEqual(renumbered.map((r: { rank: number }) => r.rank), [1, 2]);
    assertNotFound(t, await api.get(`${rules}/${r3.id}`), /^rule ".*" not found$/);
    t.deepEqual(ok(await api.del(`${rules}/${r3.id}`)), {}, 'deleting again is a silent success');
  });

  test('rules: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const { ns, base, rules } = await ruleFixture(api, 'badrules');
    const r1 = ok(await api.post(rules, { segmentKey: 'a', rank: 1 }));
    const r2 = ok(await api.post(rules, { segmentKey: 'b', rank: 2 }));
    ok(await api.post(`${base}/flags`, { key: 'other', name: 'Other' }));
    const foreign = ok(await api.post(`${base}/flags/other/rules`, { segmentKey: 'a', rank: 1 }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(rules, { segmentKey: 'a', rank: 0 }), 'invalid field rank: must be greater than 0');
    assertInvalid(t, await api.post(rules, { segmentKey: 'a', rank: -3 }), 'invalid field rank: must be greater than 0');
    assertInvalid(t, await api.post(rules, { segmentKey: 'a' }), 'invalid field rank: must be greater than 0');
    assertInvalid(t, await api.post(rules, { rank: 3 }), 'invalid field segmentKey or segmentKeys: must not be empty');
    assertInvalid(t, await api.post(rules, { segmentKey: 'a', segmentKeys: ['b'], rank: 3 }), 'invalid field segmentKey or segmentKeys: only one can be present');
    assertInvalid(t, await api.post(rules, { segmentKey: 'a', rank: 'first' }), naming('rank'), 'string for a number');
    assertInvalid(t, await api.post(rules, { segmentKeys: 'a', rank: 3 }), naming('segmentKeys'), 'string for a list');
    assertInvalid(t, await api.post(rules, { segmentKeys: ['a', 'b'], segmentOperator: 'XOR_SEGMENT_OPERATOR', rank: 3 }), naming('segmentOperator'), 'unknown enum name');
    assertNotFound(t, await api.post(rules, { segmentKey: 'ghost', rank: 3 }), `flag "${ns}/color" or segment "${ns}/ghost" not found`);
    assertNotFound(t, await api.post(`${base}/flags/ghost/rules`, { segmentKey: 'a', rank: 1 }), /^flag ".*ghost.*" or segment ".*" not found$/);
    assertNotFound(t, await api.put(`${rules}/${foreign.id}`, { segmentKey: 'b' }), /^rule ".*" not found$/, "another flag's rule");
    assertInvalid(t, await api.put(`${rules}/${r1.id}`, {}), 'invalid field segmentKey or segmentKeys: must not be empty');

    assertInvalid(t, await api.put(`${rules}/order`, { ruleIds: [r1.id] }), 'invalid field ruleIds: must contain atleast 2 elements');
    assertInvalid(t, await api.put(`${rules}/order`, { ruleIds: [r1.id, r1.id] }), naming('ruleIds'), 'duplicate id');
    assertInvalid(t, await api.put(`${rules}/order`, { ruleIds: [r2.id, foreign.id] }), naming('ruleIds'), "another flag's rule");
    assertInvalid(t, await api.put(`${rules}/order`, { ruleIds: [r2.id, r1.id, '00000000-0000-4000-8000-000000000000'] }), naming('ruleIds'), 'unknown id');

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('distributions: create, update and delete inside a rule', async (t) => {
    const { api } = t.context;
    const { rules, blue, red } = await ruleFixture(api, 'dists');
    const rule = ok(await api.post(rules, { segmentKey: 'a', rank: 1 }));
    const dists = `${rules}/${rule.id}/distributions`;

    const d1 = await api.post(dists, { variantId: blue.id, rollout: 33.33 });
    t.is(d1.status, 200, d1.text);
    t.deepEqual(Object.keys(d1.body).sort(), ['createdAt', 'id', 'rollout', 'ruleId', 'updatedAt', 'variantId']);
    t.like(d1.body, { ruleId: rule.id, variantId: blue.id, rollout: 33.33 });
    t.regex(d1.body.id, UUID);
    const d2 = ok(await api.post(dists, { variant_id: red.id, rollout: 66.67 }));
    t.like(ok(await api.get(`${rules}/${rule.id}`)), { distributions: [d1.body, d2] });

    const updated = ok(await api.put(`${dists}/${d1.body.id}`, { variantId: red.id, rollout: 0 }));
    t.like(updated, { id: d1.body.id, ruleId: rule.id, variantId: red.id, rollout: 0, createdAt: d1.body.createdAt });
    t.like(ok(await api.get(`${rules}/${rule.id}`)).distributions[0], { id: d1.body.id, variantId: red.id, rollout: 0 });

    t.deepEqual(ok(await api.del(`${dists}/${d1.body.id}?variantId=${red.id}`)), {});
    t.deepEqual(ids(ok(await api.get(`${rules}/${rule.id}`)).distributions), [d2.id]);
    t.deepEqual(ok(await api.del(`${dists}/${d1.body.id}?variantId=${red.id}`)), {}, 'deleting again is a silent success');
  });

  test('distributions: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const { ns, base, rules, blue } = await ruleFixture(api, 'baddists');
    const rule = ok(await api.post(rules, { segmentKey: 'a', rank: 1 }));
    const dists = `${rules}/${rule.id}/distributions`;
    const d = ok(await api.post(dists, { variantId: blue.id, rollout: 50 }));
    ok(await api.post(`${base}/flags`, { key: 'other', name: 'Other' }));
    const foreign = ok(await api.post(`${base}/flags/other/variants`, { key: 'x' }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(dists, { variantId: blue.id, rollout: 100.5 }), "invalid field rollout: must be less than or equal to '100'");
    assertInvalid(t, await api.post(dists, { variantId: blue.id, rollout: -1 }), "invalid field rollout: must be greater than or equal to '0'");
    assertInvalid(t, await api.post(dists, { rollout: 10 }), 'invalid field variantId: must not be empty');
    assertInvalid(t, await api.post(dists, { variantId: blue.id, rollout: 'half' }), naming('rollout'), 'string for a number');
    assertNotFound(
      t,
      await api.post(dists, { variantId: foreign.id, rollout: 10 }),
      `variant "${foreign.id}", rule "${rule.id}", flag "color" in namespace "${ns}" not found`,
    );
    assertNotFound(t, await api.put(`${dists}/${d.id}`, { variantId: foreign.id, rollout: 10 }), /not found$/, "another flag's variant on update");
    assertNotFound(t, await api.post(`${rules}/00000000-0000-4000-8000-000000000000/distributions`, { variantId: blue.id, rollout: 10 }), /not found$/);
    assertInvalid(t, await api.put(`${dists}/${d.id}`, { variantId: blue.id, rollout: 101 }), "invalid field rollout: must be less than or equal to '100'");
    assertInvalid(t, await api.del(`${dists}/${d.id}`), 'invalid field variantId: must not be empty');

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('rules and distributions: legacy routes work on the default namespace', async (t) => {
    const { api } = t.context;
    const flag = uniqueKey('legacyrule');
    const segment = uniqueKey('legacyrseg');
    ok(await api.post('/api/v1/flags', { key: flag, name: 'L' }));
    ok(await api.post('/api/v1/segments', { key: segment, name: 'S' }));
    const v = ok(await api.post(`/api/v1/flags/${flag}/variants`, { key: 'on' }));
    const r1 = ok(await api.post(`/api/v1/flags/${flag}/rules`, { segmentKey: segment, rank: 1 }));
    const r2 = ok(await api.post(`/api/v1/flags/${flag}/rules`, { segmentKey: segment, rank: 2 }));
    t.like(r1, { namespaceKey: 'default', flagKey: flag, segmentKey: segment });
    t.like(ok(await api.get(`/api/v1/flags/${flag}/rules/${r1.id}`)), { id: r1.id });
    t.deepEqual(ids(ok(await api.get(`/api/v1/flags/${flag}/rules`)).rules), [r1.id, r2.id]);
    ok(await api.put(`/api/v1/flags/${flag}/rules/order`, { ruleIds: [r2.id, r1.id] }));
    t.deepEqual(ids(ok(await api.get(`/api/v1/flags/${flag}/rules`)).rules), [r2.id, r1.id]);
    t.like(ok(await api.put(`/api/v1/flags/${flag}/rules/${r1.id}`, { segmentKey: segment })), { id: r1.id });

    const d = ok(await api.post(`/api/v1/flags/${flag}/rules/${r1.id}/distributions`, { variantId: v.id, rollout: 100 }));
    t.like(ok(await api.put(`/api/v1/flags/${flag}/rules/${r1.id}/distributions/${d.id}`, { variantId: v.id, rollout: 25 })), { rollout: 25 });
    t.deepEqual(ok(await api.del(`/api/v1/flags/${flag}/rules/${r1.id}/distributions/${d.id}?variantId=${v.id}`)), {});
    t.deepEqual(ok(await api.del(`/api/v1/flags/${flag}/rules/${r1.id}`)), {});
    t.deepEqual(ids(ok(await api.get(`/api/v1/flags/${flag}/rules`)).rules), [r2.id]);
    ok(await api.del(`/api/v1/flags/${flag}`));
    ok(await api.del(`/api/v1/segments/${segment}`));
  });
}
