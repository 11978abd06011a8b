/**
 * Several writes as one transaction and one revision (what applying a change request needs): all
 * or nothing, one change record per write at the batch's revision, one announcement with one
 * snapshot effect covering every flag touched.
 */
import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, ruleRequest } from './helpers/fixtures.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: writes in a batch commit at one revision, each recorded, announced once with every flag they touched`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 'beta');
    const before = await store.revision(ns);
    const announced = changesOf(h(), ns).length;
    const { revision } = await store.batch(ns, async () => {
      await createFlag(store, ns, 'color');
      const blue = await store.variants.create({ namespaceKey: ns, flagKey: 'color', key: 'blue', name: 'Blue', description: '', attachment: '' });
      await store.rules.create(ruleRequest(ns, 'color', ['beta'], 1));
      await store.flags.update({ namespaceKey: ns, key: 'color', name: 'Color', description: '', enabled: true, defaultVariantId: blue.id, metadata: undefined });
      await createFlag(store, ns, 'toggle', 'BOOLEAN_FLAG_TYPE');
    });
    t.is(revision, before + 1);
    t.is(await store.revision(ns), before + 1);
    const history = await store.audit.list({ namespaceKey: ns, resources: [], actions: [], limit: 10 });
    const batchEntries = history.events.filter((e) => e.revision === before + 1);
    t.deepEqual(batchEntries.map((e) => `${e.action} ${e.resource}`).reverse(), ['created flag', 'created variant', 'created rule', 'updated flag', 'created flag']);
    const news = changesOf(h(), ns).slice(announced);
    t.is(news.length, 1, 'announced once');
    t.is(news[0]!.batch?.length, 5);
    t.is(news[0]!.record.revision, before + 1);
    const effect = news[0]!.effect;
    t.is(effect.kind, 'flags');
    if (effect.kind === 'flags') {
      t.deepEqual(effect.state.flags.map((f) => f.key).sort(), ['color', 'toggle']);
      t.is(effect.state.flags.find((f) => f.key === 'color')!.defaultVariant?.key, 'blue');
      t.deepEqual(effect.state.segments.map((s) => s.key), ['beta']);
    }
  });

  test(`${dialect}: a write that fails leaves nothing of the batch written and the revision where it was`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const before = await store.revision(ns);
    const announced = changesOf(h(), ns).length;
    await rejects(
      t,
      store.batch(ns, async () => {
        await createFlag(store, ns, 'first');
        await store.variants.create({ namespaceKey: ns, flagKey: 'missing', key: 'v', name: 'V', description: '', attachment: '' });
      }),
      Code.NotFound,
      `flag "${ns}/missing" not found`,
    );
    t.is(await store.revision(ns), before);
    await t.throwsAsync(store.flags.get(ns, 'first'), { message: `flag "${ns}/first" not found` });
    t.is(changesOf(h(), ns).length, announced, 'nothing announced');
  });

  test(`${dialect}: a batch holds to its namespace; one that changes nothing commits nothing`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const other = await h().namespace();
    await rejects(t, store.batch(ns, () => createFlag(store, other, 'stray')), Code.InvalidArgument, `a change of namespace "${other}" cannot be part of a batch of namespace "${ns}"`);
    await t.throwsAsync(store.flags.get(other, 'stray'));
    const before = await store.revision(ns);
    const { revision } = await store.batch(ns, () => store.flags.delete(ns, 'never-there'));
    t.is(revision, undefined);
    t.is(await store.revision(ns), before);
  });

  test(`${dialect}: two batches on one namespace at once both commit, one revision each`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const before = await store.revision(ns);
    const [a, b] = await Promise.all([
      store.batch(ns, async () => {
        await createFlag(store, ns, 'a1');
        await createFlag(store, ns, 'a2');
      }),
      store.batch(ns, async () => {
        await createFlag(store, ns, 'b1');
        await createFlag(store, ns, 'b2');
      }),
    ]);
    t.deepEqual([a.revision, b.revision].sort(), [before + 1, before + 2]);
    t.is((await store.flags.list(ns, { limit: 0, offset: 0 })).totalCount, 4);
  });

  test(`${dialect}: a trial says what the writes would record and leaves nothing written or announced`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'kept');
    const before = await store.revision(ns);
    const announced = changesOf(h(), ns).length;
    const { records } = await store.trial(ns, async () => {
      await createFlag(store, ns, 'proposed');
      await store.flags.update({ namespaceKey: ns, key: 'kept', name: 'Renamed', description: '', enabled: false, defaultVariantId: '', metadata: undefined });
    });
    t.deepEqual(records.map((r) => `${r.action} ${r.key}`), ['created proposed', 'updated kept']);
    t.like(records[1], { before: { name: 'kept' }, after: { name: 'Renamed' } });
    t.is(await store.revision(ns), before);
    await t.throwsAsync(store.flags.get(ns, 'proposed'));
    t.is(changesOf(h(), ns).length, announced);
    await rejects(t, store.trial(ns, () => createFlag(store, ns, 'kept')), Code.InvalidArgument, `flag "${ns}/kept" is not unique`);
  });
}
