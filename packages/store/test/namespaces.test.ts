import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment } from './helpers/fixtures.js';
import { rejects, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: namespaces are created unprotected, read back, updated and listed`, async (t) => {
    const { store } = h();
    const created = await store.namespaces.create({ key: 'team-a', name: 'Team A', description: 'first' });
    t.deepEqual(created, {
      key: 'team-a',
      name: 'Team A',
      description: 'first',
      protected: false,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
    t.deepEqual(await store.namespaces.get('team-a'), created);

    const updated = await store.namespaces.update({ key: 'team-a', name: 'Team A2', description: '' });
    t.like(updated, { key: 'team-a', name: 'Team A2', description: '', protected: false, createdAt: created.createdAt });
    t.true(updated.updatedAt > created.updatedAt);

    const all = await store.namespaces.list({ limit: 0, offset: 0 });
    t.true(all.items.some((n) => n.key === 'default' && n.protected));
    t.deepEqual(all.items.find((n) => n.key === 'team-a'), updated);
    t.is(all.totalCount, all.items.length);
    t.is(all.nextOffset, undefined);
  });

  test(`${dialect}: namespace errors carry Flipt's messages`, async (t) => {
    const { store } = h();
    await store.namespaces.create({ key: 'dup-ns', name: 'x', description: '' });
    await rejects(t, store.namespaces.create({ key: 'dup-ns', name: 'y', description: '' }), Code.InvalidArgument, 'namespace "dup-ns" is not unique');
    await rejects(t, store.namespaces.get('missing-ns'), Code.NotFound, 'namespace "missing-ns" not found');
    await rejects(t, store.namespaces.update({ key: 'missing-ns', name: 'x', description: '' }), Code.NotFound, 'namespace "missing-ns" not found');
    await rejects(t, store.namespaces.delete('missing-ns', false), Code.NotFound, 'namespace "missing-ns" not found');
    await rejects(t, store.namespaces.delete('missing-ns', true), Code.NotFound, 'namespace "missing-ns" not found');
    t.is((await store.namespaces.get('dup-ns')).name, 'x');
  });

  test(`${dialect}: the protected default namespace is only deleted by force`, async (t) => {
    const { store } = h();
    await rejects(t, store.namespaces.delete('default', false), Code.InvalidArgument, 'namespace "default" is protected');
    t.true((await store.namespaces.get('default')).protected);
  });

  test(`${dialect}: a namespace with flags is only deleted by force, which removes everything in it`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f1');
    await store.variants.create({ namespaceKey: ns, flagKey: 'f1', key: 'v1', name: '', description: '', attachment: '' });
    await createSegment(store, ns, 's1');
    await store.constraints.create({
      namespaceKey: ns,
      segmentKey: 's1',
      type: 'STRING_COMPARISON_TYPE',
      property: 'p',
      operator: 'eq',
      value: 'v',
      description: '',
    });
    const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'f1', segmentKey: '', segmentKeys: ['s1'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    await createFlag(store, ns, 'b1', 'BOOLEAN_FLAG_TYPE');
    await store.rollouts.create({
      namespaceKey: ns,
      flagKey: 'b1',
      rank: 1,
      description: '',
      segment: { segmentKey: '', segmentKeys: ['s1'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
      threshold: undefined,
    });
    t.truthy(rule.id);

    await rejects(t, store.namespaces.delete(ns, false), Code.InvalidArgument, `namespace "${ns}" cannot be deleted; flags must be deleted first`);
    t.is((await store.flags.list(ns, { limit: 0, offset: 0 })).totalCount, 2);

    await store.namespaces.delete(ns, true);
    await rejects(t, store.namespaces.get(ns), Code.NotFound, `namespace "${ns}" not found`);
    t.is((await store.flags.list(ns, { limit: 0, offset: 0 })).totalCount, 0);
    t.is((await store.segments.list(ns, { limit: 0, offset: 0 })).totalCount, 0);
    t.is((await store.rules.list(ns, 'f1', { limit: 0, offset: 0 })).totalCount, 0);
    t.is((await store.rollouts.list(ns, 'b1', { limit: 0, offset: 0 })).totalCount, 0);
  });

  test(`${dialect}: an empty namespace is deleted without force, segments and all`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 'lonely');
    await store.namespaces.delete(ns, false);
    await rejects(t, store.namespaces.get(ns), Code.NotFound, `namespace "${ns}" not found`);
    t.is((await store.segments.list(ns, { limit: 0, offset: 0 })).totalCount, 0);
  });

  test(`${dialect}: writes into a namespace that does not exist are NotFound`, async (t) => {
    const { store } = h();
    await rejects(t, createFlag(store, 'nowhere', 'f'), Code.NotFound, 'namespace "nowhere" not found');
    await rejects(t, createSegment(store, 'nowhere', 's'), Code.NotFound, 'namespace "nowhere" not found');
    await rejects(
      t,
      store.variants.create({ namespaceKey: 'nowhere', flagKey: 'f', key: 'v', name: '', description: '', attachment: '' }),
      Code.NotFound,
      'namespace "nowhere" not found',
    );
    await rejects(
      t,
      store.rules.create({ namespaceKey: 'nowhere', flagKey: 'f', segmentKey: '', segmentKeys: ['s'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 }),
      Code.NotFound,
      'namespace "nowhere" not found',
    );
    // Deletes of things that are not there succeed, even in a missing namespace.
    await t.notThrowsAsync(store.flags.delete('nowhere', 'f'));
    await t.notThrowsAsync(store.segments.delete('nowhere', 's'));
  });

  test(`${dialect}: an empty namespace key means the default namespace`, async (t) => {
    const { store } = h();
    const flag = await createFlag(store, '', 'in-default');
    t.is(flag.namespaceKey, 'default');
    t.is((await store.flags.get('default', 'in-default')).key, 'in-default');
    await store.flags.delete('', 'in-default');
    await rejects(t, store.flags.get('default', 'in-default'), Code.NotFound, 'flag "default/in-default" not found');
  });
}
