import test from 'ava';
import { Code } from '@ensign/core';
import type { CreateConstraint } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, segmentRollout } from './helpers/fixtures.js';
import { rejects, useStore } from './helpers/store-harness.js';

const constraint = (namespaceKey: string, segmentKey: string, property: string): CreateConstraint => ({
  namespaceKey,
  segmentKey,
  type: 'STRING_COMPARISON_TYPE',
  property,
  operator: 'eq',
  value: 'pro',
  description: 'plan',
});

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: segments are created, read with their constraints by creation, updated and deleted`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const created = await store.segments.create({ namespaceKey: ns, key: 'beta', name: 'Beta', description: 'd', matchType: 'ANY_MATCH_TYPE' });
    t.deepEqual(created, {
      namespaceKey: ns,
      key: 'beta',
      name: 'Beta',
      description: 'd',
      matchType: 'ANY_MATCH_TYPE',
      constraints: [],
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });

    const c1 = await store.constraints.create(constraint(ns, 'beta', 'plan'));
    t.deepEqual(c1, {
      id: c1.id,
      namespaceKey: ns,
      segmentKey: 'beta',
      type: 'STRING_COMPARISON_TYPE',
      property: 'plan',
      operator: 'eq',
      value: 'pro',
      description: 'plan',
      createdAt: c1.createdAt,
      updatedAt: c1.createdAt,
    });
    const c2 = await store.constraints.create({ ...constraint(ns, 'beta', 'age'), type: 'NUMBER_COMPARISON_TYPE', operator: 'gte', value: '18' });
    t.deepEqual((await store.segments.get(ns, 'beta')).constraints, [c1, c2]);

    const updated = await store.segments.update({ namespaceKey: ns, key: 'beta', name: 'Beta 2', description: '', matchType: 'ALL_MATCH_TYPE' });
    t.deepEqual(updated, { ...created, name: 'Beta 2', description: '', matchType: 'ALL_MATCH_TYPE', constraints: [c1, c2], updatedAt: updated.updatedAt });
    t.true(updated.updatedAt > created.updatedAt);
    t.deepEqual((await store.segments.list(ns, { limit: 0, offset: 0 })).items, [updated]);

    await store.segments.delete(ns, 'beta');
    await rejects(t, store.segments.get(ns, 'beta'), Code.NotFound, `segment "${ns}/beta" not found`);
    // Its constraints went with it: a new segment of that key starts empty.
    t.deepEqual((await createSegment(store, ns, 'beta')).constraints, []);
  });

  test(`${dialect}: constraints are updated in place and deleted`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    const c = await store.constraints.create(constraint(ns, 's', 'plan'));
    const updated = await store.constraints.update({ ...constraint(ns, 's', 'tier'), id: c.id, operator: 'isoneof', value: '["a","b"]', description: '' });
    t.deepEqual(updated, { ...c, property: 'tier', operator: 'isoneof', value: '["a","b"]', description: '', updatedAt: updated.updatedAt });
    t.deepEqual((await store.segments.get(ns, 's')).constraints, [updated]);
    await store.constraints.delete(ns, 's', c.id);
    t.deepEqual((await store.segments.get(ns, 's')).constraints, []);
    await t.notThrowsAsync(store.constraints.delete(ns, 's', c.id));
  });

  test(`${dialect}: segment and constraint errors carry Flipt's messages`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    await rejects(t, createSegment(store, ns, 's'), Code.InvalidArgument, `segment "${ns}/s" is not unique`);
    await rejects(t, store.segments.get(ns, 'ghost'), Code.NotFound, `segment "${ns}/ghost" not found`);
    await rejects(
      t,
      store.segments.update({ namespaceKey: ns, key: 'ghost', name: 'g', description: '', matchType: 'ALL_MATCH_TYPE' }),
      Code.NotFound,
      `segment "${ns}/ghost" not found`,
    );
    await t.notThrowsAsync(store.segments.delete(ns, 'ghost'));
    await rejects(t, store.constraints.create(constraint(ns, 'ghost', 'p')), Code.NotFound, `segment "${ns}/ghost" not found`);
    await rejects(t, store.constraints.update({ ...constraint(ns, 's', 'p'), id: 'nope' }), Code.NotFound, 'constraint "nope" not found');
    // A constraint is addressed through its own segment.
    const c = await store.constraints.create(constraint(ns, 's', 'p'));
    await createSegment(store, ns, 't');
    await rejects(t, store.constraints.update({ ...constraint(ns, 't', 'p'), id: c.id }), Code.NotFound, `constraint "${c.id}" not found`);
    await store.constraints.delete(ns, 't', c.id);
    t.deepEqual((await store.segments.get(ns, 's')).constraints, [c]);
  });

  test(`${dialect}: a segment used by a rule or a rollout cannot be deleted until it is released`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 'by-rule');
    await createSegment(store, ns, 'by-rollout');
    await createFlag(store, ns, 'v');
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'v', segmentKey: '', segmentKeys: ['by-rule'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    const rollout = await store.rollouts.create(segmentRollout(ns, 'b', 1, ['by-rollout']));

    await rejects(t, store.segments.delete(ns, 'by-rule'), Code.InvalidArgument, `segment "${ns}/by-rule" is in use`);
    await rejects(t, store.segments.delete(ns, 'by-rollout'), Code.InvalidArgument, `segment "${ns}/by-rollout" is in use`);
    t.is((await store.segments.get(ns, 'by-rule')).key, 'by-rule');

    await store.rules.delete(ns, 'v', rule.id);
    await store.rollouts.delete(ns, 'b', rollout.id);
    await store.segments.delete(ns, 'by-rule');
    await store.segments.delete(ns, 'by-rollout');
    t.is((await store.segments.list(ns, { limit: 0, offset: 0 })).totalCount, 0);
  });
}
