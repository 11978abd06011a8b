import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { rejects, useStore } from './helpers/store-harness.js';

const ALL = { limit: 0, offset: 0 };

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: segment and threshold rollouts are created, read, updated and listed by rank`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    for (const s of ['s1', 's2']) await createSegment(store, ns, s);

    const bySegment = await store.rollouts.create({ ...segmentRollout(ns, 'b', 2, ['s1']), description: 'internal' });
    t.deepEqual(bySegment, {
      id: bySegment.id,
      namespaceKey: ns,
      flagKey: 'b',
      type: 'SEGMENT_ROLLOUT_TYPE',
      rank: 2,
      description: 'internal',
      createdAt: bySegment.createdAt,
      updatedAt: bySegment.createdAt,
      segment: { segmentKey: 's1', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
    });
    const byThreshold = await store.rollouts.create(thresholdRollout(ns, 'b', 1, 25.5));
    t.deepEqual(byThreshold, {
      id: byThreshold.id,
      namespaceKey: ns,
      flagKey: 'b',
      type: 'THRESHOLD_ROLLOUT_TYPE',
      rank: 1,
      description: '',
      createdAt: byThreshold.createdAt,
      updatedAt: byThreshold.createdAt,
      threshold: { percentage: 25.5, value: true },
    });
    t.deepEqual((await store.rollouts.list(ns, 'b', ALL)).items, [byThreshold, bySegment]);

    const segUpdated = await store.rollouts.update({
      namespaceKey: ns,
      flagKey: 'b',
      id: bySegment.id,
      description: 'both',
      segment: { segmentKey: '', segmentKeys: ['s2', 's1'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false },
      threshold: undefined,
    });
    t.deepEqual(segUpdated, {
      ...bySegment,
      description: 'both',
      updatedAt: segUpdated.updatedAt,
      segment: { segmentKey: '', segmentKeys: ['s2', 's1'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false },
    });
    const thUpdated = await store.rollouts.update({
      namespaceKey: ns,
      flagKey: 'b',
      id: byThreshold.id,
      description: 'half',
      segment: undefined,
      threshold: { percentage: 50, value: false },
    });
    t.deepEqual(thUpdated, { ...byThreshold, description: 'half', updatedAt: thUpdated.updatedAt, threshold: { percentage: 50, value: false } });
    t.deepEqual(await store.rollouts.get(ns, 'b', bySegment.id), segUpdated);
  });

  test(`${dialect}: rollout errors carry Flipt's messages`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await createFlag(store, ns, 'v');
    await createSegment(store, ns, 's');
    const first = await store.rollouts.create(thresholdRollout(ns, 'b', 1));
    await rejects(t, store.rollouts.create(segmentRollout(ns, 'b', 1, ['s'])), Code.InvalidArgument, 'rank number: 1 already exists');
    await rejects(t, store.rollouts.create(segmentRollout(ns, 'b', 5, ['nope'])), Code.NotFound, `flag "${ns}/b or segment nope" not found`);
    await rejects(t, store.rollouts.create(segmentRollout(ns, 'ghost', 5, ['s'])), Code.NotFound, `flag "${ns}/ghost or segment s" not found`);
    await rejects(t, store.rollouts.create(thresholdRollout(ns, 'ghost', 5)), Code.NotFound, `flag "${ns}/ghost" not found`);
    await rejects(t, store.rollouts.create(thresholdRollout(ns, 'v', 1)), Code.InvalidArgument, `flag "${ns}/v" is not a boolean flag`);
    await rejects(
      t,
      store.rollouts.create({ ...thresholdRollout(ns, 'b', 9), threshold: undefined }),
      Code.InvalidArgument,
      'rollout rule is missing',
    );

    const update = { namespaceKey: ns, flagKey: 'b', id: first.id, description: '' };
    await rejects(
      t,
      store.rollouts.update({ ...update, segment: { segmentKey: 's', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true }, threshold: undefined }),
      Code.InvalidArgument,
      'cannot change type of rollout: have "THRESHOLD_ROLLOUT_TYPE" attempted "SEGMENT_ROLLOUT_TYPE"',
    );
    await rejects(t, store.rollouts.update({ ...update, segment: undefined, threshold: undefined }), Code.InvalidArgument, 'invalid field rule: invalid rollout rule type');
    await rejects(
      t,
      store.rollouts.update({ ...update, id: 'nope', segment: undefined, threshold: { percentage: 1, value: true } }),
      Code.NotFound,
      `rollout "${ns}/nope" not found`,
    );
    const seg = await store.rollouts.create(segmentRollout(ns, 'b', 2, ['s']));
    await rejects(
      t,
      store.rollouts.update({ ...update, id: seg.id, segment: undefined, threshold: { percentage: 1, value: true } }),
      Code.InvalidArgument,
      'cannot change type of rollout: have "SEGMENT_ROLLOUT_TYPE" attempted "THRESHOLD_ROLLOUT_TYPE"',
    );
    await rejects(
      t,
      store.rollouts.update({ ...update, id: seg.id, segment: { segmentKey: '', segmentKeys: ['s', 'nope'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true }, threshold: undefined }),
      Code.NotFound,
      `flag "${ns}/b or segment nope" not found`,
    );
    await rejects(t, store.rollouts.get(ns, 'b', 'nope'), Code.NotFound, `rollout "${ns}/nope" not found`);
    await rejects(t, store.rollouts.get(ns, 'v', first.id), Code.NotFound, `rollout "${ns}/${first.id}" not found`);
    t.deepEqual((await store.rollouts.list(ns, 'b', ALL)).items, [first, seg]);
  });

  test(`${dialect}: ordering rollouts needs every rollout of the flag exactly once; deletes renumber`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    const r1 = await store.rollouts.create(thresholdRollout(ns, 'b', 1));
    const r2 = await store.rollouts.create(thresholdRollout(ns, 'b', 2));
    const r3 = await store.rollouts.create(thresholdRollout(ns, 'b', 3));
    const order = (ids: string[]) => store.rollouts.order({ namespaceKey: ns, flagKey: 'b', ids });
    const message = `invalid field rolloutIds: must contain each rollout of flag "${ns}/b" exactly once`;
    await rejects(t, order([r3.id, r1.id]), Code.InvalidArgument, message);
    await rejects(t, order([r3.id, r1.id, r1.id]), Code.InvalidArgument, message);
    await rejects(t, order([r3.id, r1.id, r2.id, 'x']), Code.InvalidArgument, message);

    await order([r2.id, r3.id, r1.id]);
    const ranks = async () => (await store.rollouts.list(ns, 'b', ALL)).items.map((r) => [r.id, r.rank]);
    t.deepEqual(await ranks(), [[r2.id, 1], [r3.id, 2], [r1.id, 3]]);
    // Re-ordering frees ranks: rank 4 is new, rank 3 is taken by r1 now.
    await rejects(t, store.rollouts.create(thresholdRollout(ns, 'b', 3)), Code.InvalidArgument, 'rank number: 3 already exists');

    await store.rollouts.delete(ns, 'b', r3.id);
    t.deepEqual(await ranks(), [[r2.id, 1], [r1.id, 2]]);
    await t.notThrowsAsync(store.rollouts.delete(ns, 'b', r3.id));
    const r4 = await store.rollouts.create(thresholdRollout(ns, 'b', 3));
    t.deepEqual(await ranks(), [[r2.id, 1], [r1.id, 2], [r4.id, 3]]);
  });
}
