/** Rollouts of boolean flags: segment and threshold kinds, order, paging, validation (namespaced routes only). */
import type { JsonClient } from '@ensign/testkit';
import { assertError, assertInvalid, assertNotFound, createNamespace, naming, namespaceState, ok, TIMESTAMP, uniqueKey, UUID } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

/** A namespace with a boolean flag `new-ui` and segments staff, beta. */
async function rolloutFixture(api: JsonClient, prefix: string) {
  const ns = await createNamespace(api, prefix);
  const base = `/api/v1/namespaces/${ns}`;
  ok(await api.post(`${base}/flags`, { key: 'new-ui', name: 'New UI', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  for (const key of ['staff', 'beta']) ok(await api.post(`${base}/segments`, { key, name: key }));
  return { ns, base, rollouts: `${base}/flags/new-ui/rollouts` };
}

const ids = (list: Array<{ id: string }>) => list.map((r) => r.id);

export function rolloutsSuite(test: ApiTest): void {
  test('rollouts: threshold and segment kinds', async (t) => {
    const { api } = t.context;
    const { ns, rollouts } = await rolloutFixture(api, 'rollouts');

    const threshold = await api.post(rollouts, { rank: 1, description: 'a quarter', threshold: { percentage: 25, value: true } });
    t.is(threshold.status, 200, threshold.text);
    t.like(threshold.body, {
      namespaceKey: ns,
      flagKey: 'new-ui',
      type: 'THRESHOLD_ROLLOUT_TYPE',
      rank: 1,
      description: 'a quarter',
      threshold: { percentage: 25, value: true },
    });
    t.false('segment' in threshold.body);
    t.regex(threshold.body.id, UUID);
    t.regex(threshold.body.createdAt, TIMESTAMP);

    const single = ok(await api.post(rollouts, { rank: 2, segment: { segmentKey: 'staff', value: true } }));
    t.like(single, { type: 'SEGMENT_ROLLOUT_TYPE', rank: 2, description: '', segment: { segmentKey: 'staff', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } });
    t.false('threshold' in single);

    const multi = ok(await api.post(rollouts, { rank: 3, segment: { segmentKeys: ['staff', 'beta'], segmentOperator: 'AND_SEGMENT_OPERATOR' } }));
    t.like(multi, { segment: { segmentKey: '', segmentKeys: ['staff', 'beta'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false } });

    const zero = ok(await api.post(rollouts, { rank: 4, threshold: {} }));
    t.like(zero, { type: 'THRESHOLD_ROLLOUT_TYPE', threshold: { percentage: 0, value: false } });

    t.deepEqual(ok(await api.get(`${rollouts}/${single.id}`)), single);
  });

  test('rollouts: the list body names its items "rules", ordered by rank, with paging', async (t) => {
    const { api } = t.context;
    const { rollouts } = await rolloutFixture(api, 'listrollouts');
    const r2 = ok(await api.post(rollouts, { rank: 2, threshold: { percentage: 50, value: true } }));
    const r1 = ok(await api.post(rollouts, { rank: 1, segment: { segmentKey: 'beta', value: true } }));
    const r3 = ok(await api.post(rollouts, { rank: 3, threshold: { percentage: 10, value: false } }));

    const list = ok(await api.get(rollouts));
    t.deepEqual(Object.keys(list).sort(), ['nextPageToken', 'rules', 'totalCount']);
    t.deepEqual(ids(list.rules), [r1.id, r2.id, r3.id]);
    t.is(list.totalCount, 3);
    t.is(list.nextPageToken, '');

    const page1 = ok(await api.get(`${rollouts}?limit=2`));
    t.deepEqual(ids(page1.rules), [r1.id, r2.id]);
    t.is(page1.totalCount, 3);
    const page2 = ok(await api.get(`${rollouts}?limit=2&pageToken=${encodeURIComponent(page1.nextPageToken)}`));
    t.deepEqual(ids(page2.rules), [r3.id]);
    t.is(page2.nextPageToken, '');
  });

  test('rollouts: update keeps kind and rank; order assigns ranks; delete renumbers', async (t) => {
    const { api } = t.context;
    const { rollouts } = await rolloutFixture(api, 'putrollouts');
    const r1 = ok(await api.post(rollouts, { rank: 1, threshold: { percentage: 50, value: true } }));
    const r2 = ok(await api.post(rollouts, { rank: 2, segment: { segmentKey: 'beta', value: true } }));
    const r3 = ok(await api.post(rollouts, { rank: 3, segment: { segmentKey: 'staff', value: false } }));

    t.like(ok(await api.put(`${rollouts}/${r1.id}`, { rank: 9, description: 'now 75', threshold: { percentage: 75, value: false } })), {
      id: r1.id,
      rank: 1,
      description: 'now 75',
      type: 'THRESHOLD_ROLLOUT_TYPE',
      threshold: { percentage: 75, value: false },
    });
    t.like(ok(await api.put(`${rollouts}/${r2.id}`, { segment: { segmentKeys: ['beta', 'staff'], value: true } })), {
      type: 'SEGMENT_ROLLOUT_TYPE',
      description: '',
      segment: { segmentKey: '', segmentKeys: ['beta', 'staff'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
    });

    t.deepEqual(ok(await api.put(`${rollouts}/order`, { rolloutIds: [r3.id, r2.id, r1.id] })), {});
    const ordered = ok(await api.get(rollouts)).rules;
    t.deepEqual(ids(ordered), [r3.id, r2.id, r1.id]);
    t.deepEqual(ordered.map((r: { rank: number }) => r.rank), [1, 2, 3]);

    t.deepEqual(ok(await api.del(`${rollouts}/${r3.id}`)), {});
    const renumbered = ok(await api.get(rollouts)).rules;
    t.deepEqual(ids(renumbered), [r2.id, r1.id]);
    t.deepEqual(renumbered.map((r: { rank: number }) => r.rank), [1, 2]);
    assertNotFound(t, await api.get(`${rollouts}/${r3.id}`), /^rollout ".*" not found$/);
    t.deepEqual(ok(await api.del(`${rollouts}/${r3.id}`)), {}, 'deleting again is a silent success');
  });

  test('rollouts: bad requests are refused by field and change nothing', async (t) => {
    const { api } = t.context;
    const { ns, base, rollouts } = await rolloutFixture(api, 'badrollouts');
    const r1 = ok(await api.post(rollouts, { rank: 1, threshold: { percentage: 50, value: true } }));
    const r2 = ok(await api.post(rollouts, { rank: 2, segment: { segmentKey: 'beta', value: true } }));
    ok(await api.post(`${base}/flags`, { key: 'other', name: 'Other', type: 'BOOLEAN_FLAG_TYPE' }));
    const foreign = ok(await api.post(`${base}/flags/other/rollouts`, { rank: 1, threshold: { percentage: 5 } }));
    const before = await namespaceState(api, ns);

    assertInvalid(t, await api.post(rollouts, { rank: 3, threshold: { percentage: 101, value: true } }), 'invalid field threshold.percentage: must be within range [0, 100]');
    assertInvalid(t, await api.post(rollouts, { rank: 3, threshold: { percentage: -1 } }), 'invalid field threshold.percentage: must be within range [0, 100]');
    assertInvalid(t, await api.post(rollouts, { rank: 3 }), 'rollout rule is missing');
    assertInvalid(t, await api.post(rollouts, { rank: 3, segment: { value: true } }), 'invalid field segmentKey or segmentKeys: must not be empty');
    assertInvalid(t, await api.post(rollouts, { rank: 3, segment: { segmentKey: 'beta', segmentKeys: ['staff'] } }), 'invalid field segmentKey or segmentKeys: only one can be present');
    assertInvalid(t, await api.post(rollouts, { rank: 3, segment: { segmentKey: 'beta' }, threshold: { percentage: 5 } }), /segment|threshold|rule/, 'both kinds');
    assertInvalid(t, await api.post(rollouts, { rank: 1, threshold: { percentage: 5 } }), 'rank number: 1 already exists');
    assertInvalid(t, await api.post(rollouts, { rank: 3, threshold: { percentage: 'half' } }), naming('percentage'), 'string for a number');
    assertInvalid(t, await api.post(rollouts, { rank: 3, segment: { segmentKeys: ['beta', 'staff'], segmentOperator: 'NOR' } }), naming('segmentOperator'), 'unknown enum name');
    assertNotFound(t, await api.post(rollouts, { rank: 3, segment: { segmentKey: 'ghost' } }), /not found$/);
    assertNotFound(t, await api.post(`${base}/flags/ghost/rollouts`, { rank: 1, threshold: { percentage: 5 } }), /not found$/);
    assertInvalid(
      t,
      await api.put(`${rollouts}/${r1.id}`, { segment: { segmentKey: 'beta' } }),
      'cannot change type of rollout: have "THRESHOLD_ROLLOUT_TYPE" attempted "SEGMENT_ROLLOUT_TYPE"',
    );
    assertInvalid(t, await api.put(`${rollouts}/${r2.id}`, { description: 'no rule' }), 'invalid field rule: invalid rollout rule type');
    assertNotFound(t, await api.put(`${rollouts}/${foreign.id}`, { threshold: { percentage: 9 } }), /^rollout ".*" not found$/, "another flag's rollout");

    assertInvalid(t, await api.put(`${rollouts}/order`, { rolloutIds: [r1.id] }), 'invalid field rolloutIds: must contain atleast 2 elements');
    assertInvalid(t, await api.put(`${rollouts}/order`, { rolloutIds: [r1.id, r1.id] }), naming('rolloutIds'), 'duplicate id');
    assertInvalid(t, await api.put(`${rollouts}/order`, { rolloutIds: [r2.id, foreign.id] }), naming('rolloutIds'), "another flag's rollout");

    t.deepEqual(await namespaceState(api, ns), before);
  });

  test('rollouts: there is no legacy route without the namespace', async (t) => {
    const { api } = t.context;
    const key = uniqueKey('legacyroll');
    ok(await api.post('/api/v1/flags', { key, name: 'L', type: 'BOOLEAN_FLAG_TYPE' }));
    assertError(t, await api.post(`/api/v1/flags/${key}/rollouts`, { rank: 1, threshold: { percentage: 5 } }), { status: 404, code: 5, message: 'Not Found' });
    assertError(t, await api.get(`/api/v1/flags/${key}/rollouts`), { status: 404, code: 5, message: 'Not Found' });
    t.is(ok(await api.get(`/api/v1/namespaces/default/flags/${key}/rollouts`)).totalCount, 0);
    ok(await api.del(`/api/v1/flags/${key}`));
  });
}
