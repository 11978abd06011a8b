import test from 'ava';
import knexFactory from 'knex';
import { Code } from '@ensign/core';
import { openStore, parseDatabaseUrl } from '@ensign/store';
import type { CommittedChange, SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import type { TestDatabase } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { changesOf, lastChange, recordsOf, rejects, steppingClock, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: every write bumps its namespace's revision by one and announces it after commit`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    t.is(await store.revision(ns), 1);
    t.deepEqual(changesOf(h(), ns).map((c) => [c.record.revision, c.record.resource, c.record.action, c.effect.kind]), [
      [1, 'namespace', 'created', 'namespace-created'],
    ]);

    let expected = 1;
    const step = async (what: string, write: () => Promise<unknown>) => {
      await write();
      expected += 1;
      t.is(await store.revision(ns), expected, what);
      t.like(lastChange(h(), ns).record, { namespaceKey: ns, revision: expected }, what);
    };
    const flagUpdate = { namespaceKey: ns, key: 'f', name: 'f', description: '', enabled: true, metadata: undefined };
    const variant = { namespaceKey: ns, flagKey: 'f', key: 'a', name: '', description: '', attachment: '' };

    await step('namespace update', () => store.namespaces.update({ key: ns, name: 'renamed', description: '' }));
    await step('flag create', () => createFlag(store, ns, 'f'));
    const a = await store.variants.create(variant);
    expected += 1;
    await step('variant update', () => store.variants.update({ ...variant, id: a.id, name: 'A' }));
    await step('flag update', () => store.flags.update({ ...flagUpdate, defaultVariantId: a.id }));
    await step('segment create', () => createSegment(store, ns, 's'));
    await step('segment update', () => store.segments.update({ namespaceKey: ns, key: 's', name: 'S', description: '', matchType: 'ANY_MATCH_TYPE' }));
    const c = await store.constraints.create({ namespaceKey: ns, segmentKey: 's', type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v', description: '' });
    expected += 1;
    await step('constraint update', () => store.constraints.update({ ...c, value: 'w' }));
    await step('constraint delete', () => store.constraints.delete(ns, 's', c.id));
    const r1 = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    const r2 = await store.rules.create(ruleRequest(ns, 'f', ['s'], 2));
    expected += 2;
    await step('rule update', () => store.rules.update({ ...ruleRequest(ns, 'f', ['s'], 1), id: r1.id }));
    await step('rules order', () => store.rules.order({ namespaceKey: ns, flagKey: 'f', ids: [r2.id, r1.id] }));
    const d = await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: r1.id, variantId: a.id, rollout: 10 });
    expected += 1;
    await step('distribution update', () => store.distributions.update({ namespaceKey: ns, flagKey: 'f', ruleId: r1.id, id: d.id, variantId: a.id, rollout: 20 }));
    await step('distribution delete', () => store.distributions.delete({ namespaceKey: ns, flagKey: 'f', ruleId: r1.id, id: d.id, variantId: a.id }));
    await step('rule delete', () => store.rules.delete(ns, 'f', r2.id));
    await step('variant delete', () => store.variants.delete(ns, 'f', a.id));
    await step('boolean flag create', () => createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE'));
    const o1 = await store.rollouts.create(thresholdRollout(ns, 'b', 1));
    const o2 = await store.rollouts.create(segmentRollout(ns, 'b', 2, ['s']));
    expected += 2;
    await step('rollout update', () => store.rollouts.update({ namespaceKey: ns, flagKey: 'b', id: o1.id, description: 'x', segment: undefined, threshold: { percentage: 5, value: false } }));
    await step('rollouts order', () => store.rollouts.order({ namespaceKey: ns, flagKey: 'b', ids: [o2.id, o1.id] }));
    await step('rollout delete', () => store.rollouts.delete(ns, 'b', o2.id));
    await step('flag delete', () => store.flags.delete(ns, 'f'));
    await step('segment delete', () => store.segments.delete(ns, 's'));

    // Changes arrive in commit order, one per write, without gaps.
    t.deepEqual(recordsOf(h(), ns).map((r) => r.revision), Array.from({ length: expected }, (_, i) => i + 1));

    await store.namespaces.delete(ns, true);
    t.like(lastChange(h(), ns), { record: { revision: expected + 1, resource: 'namespace', action: 'deleted' }, effect: { kind: 'namespace-deleted' } });
    await rejects(t, store.revision(ns), Code.NotFound, `namespace "${ns}" not found`);
  });

  test(`${dialect}: failed writes and deletes of missing things change no revision and announce nothing`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'f', ['a']);
    await createSegment(store, ns, 's');
    const before = await store.revision(ns);
    const announced = changesOf(h(), ns).length;

    await t.throwsAsync(createFlag(store, ns, 'f'));
    await t.throwsAsync(store.variants.create({ namespaceKey: ns, flagKey: 'f', key: 'a', name: '', description: '', attachment: '' }));
    await t.throwsAsync(store.rules.create(ruleRequest(ns, 'f', ['s', 'missing'], 1)));
    await t.throwsAsync(store.flags.update({ namespaceKey: ns, key: 'f', name: 'x', description: '', enabled: true, defaultVariantId: 'nope', metadata: undefined }));
    await store.flags.delete(ns, 'ghost');
    await store.variants.delete(ns, 'f', 'ghost');
    await store.segments.delete(ns, 'ghost');
    await store.rules.delete(ns, 'f', 'ghost');
    await store.rollouts.delete(ns, 'f', 'ghost');

    t.is(await store.revision(ns), before);
    t.is(changesOf(h(), ns).length, announced);
    t.is((await store.flags.get(ns, 'f')).name, 'f');
    t.deepEqual((await store.rules.list(ns, 'f', { limit: 0, offset: 0 })).items, []);
  });

  test(`${dialect}: concurrent writes to one namespace get consecutive revisions; a racing duplicate loses cleanly`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const keys = Array.from({ length: 8 }, (_, i) => `c${i}`);
    const results = await Promise.allSettled([...keys.map((k) => createFlag(store, ns, k)), createFlag(store, ns, 'c0')]);
    const rejected = results.filter((r) => r.status === 'rejected');
    t.is(rejected.length, 1);
    t.like((rejected[0] as PromiseRejectedResult).reason, { code: Code.InvalidArgument, message: `flag "${ns}/c0" is not unique` });
    t.is(await store.revision(ns), 1 + keys.length);
    t.deepEqual(
      recordsOf(h(), ns).map((r) => r.revision).sort((a, b) => a - b),
      Array.from({ length: 1 + keys.length }, (_, i) => i + 1),
    );
    t.is((await store.flags.list(ns, { limit: 0, offset: 0 })).totalCount, keys.length);
  });

  test(`${dialect}: concurrent updates of one flag each start from the one committed before it`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const ids = flag.variants.map((v) => v.id);
    const updates = Array.from({ length: 8 }, (_, i) =>
      store.flags.update({ namespaceKey: ns, key: 'f', name: `f${i}`, description: `${i}`, enabled: i % 2 === 0, defaultVariantId: ids[i % 2]!, metadata: { i } }),
    );
    await Promise.all(updates);
    const changes = changesOf(h(), ns).filter((c) => c.record.resource === 'flag' && c.record.action === 'updated');
    t.is(changes.length, updates.length);
    const byRevision = [...changes].sort((a, b) => a.record.revision - b.record.revision);
    let previous: unknown = flag;
    for (const { record, effect } of byRevision) {
      t.deepEqual(record.before, previous, `revision ${record.revision} starts from the one before`);
      t.deepEqual(effect.kind === 'flags' ? effect.state.flags : undefined, [record.after], `revision ${record.revision} effect`);
      previous = record.after;
    }
    t.deepEqual(await store.flags.get(ns, 'f'), previous);
  });

  test(`${dialect}: listeners run after the commit, and their failure does not fail the write`, async (t) => {
    const db = await createTestDatabase(dialect);
    const seen: Array<{ change: CommittedChange; stored: number }> = [];
    let store: SqlStore | undefined;
    try {
      const opened = await openStore({ url: db.url, now: steppingClock() });
      store = opened;
      opened.onCommit(async (change) => {
        // A read through the pool sees the write only once it has committed.
        seen.push({ change, stored: await opened.revision(change.record.namespaceKey) });
        throw new Error('listener failure');
      });
      await store.migrate();
      const flag = await createFlag(store, 'default', 'f');
      t.is(flag.key, 'f');
      t.is(seen.length, 1);
      t.like(seen[0]?.change.record, { namespaceKey: 'default', revision: 2, resource: 'flag', key: 'f', action: 'created' });
      t.is(seen[0]?.stored, 2);
    } finally {
      await store?.close();
      await db.drop();
    }
  });

  test(`${dialect}: a write that fails half-way leaves nothing behind`, async (t) => {
    const db: TestDatabase = await createTestDatabase(dialect);
    const changes: CommittedChange[] = [];
    const store = await openStore({ url: db.url });
    store.onCommit((c) => {
      changes.push(c);
    });
    const { client, connection } = parseDatabaseUrl(db.url);
    const raw = knexFactory({ client, connection, useNullAsDefault: true });
    try {
      await store.migrate();
      await createFlag(store, 'default', 'b', 'BOOLEAN_FLAG_TYPE');
      const revision = await store.revision('default');
      changes.length = 0;
      // Without its threshold table, a threshold rollout fails after its rollout row is written.
      await raw.schema.dropTable('rollout_thresholds');
      await t.throwsAsync(store.rollouts.create(thresholdRollout('default', 'b', 1)), { any: true });
      t.deepEqual((await store.rollouts.list('default', 'b', { limit: 0, offset: 0 })).items, []);
      t.is(await store.revision('default'), revision);
      t.deepEqual(changes, []);
    } finally {
      await raw.destroy();
      await store.close();
      await db.drop();
    }
  });
}
