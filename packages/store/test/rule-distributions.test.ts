/**
 * What a change request needs to name things that have no id yet: a rule created with its
 * distributions by variant key, and a flag's default variant by key, each one write (one change
 * record) that joins a batch like any other.
 */
import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createSegment, flagWithVariants, ruleRequest } from './helpers/fixtures.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a rule is created with its distributions in one write, read back in the order given`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b', 'c']);
    await createSegment(store, ns, 's');
    const idOf = new Map(flag.variants.map((v) => [v.key, v.id]));
    const announced = changesOf(h(), ns).length;

    const rule = await store.rules.create({
      ...ruleRequest(ns, 'f', ['s'], 1),
      distributions: [{ variantKey: 'c', rollout: 50 }, { variantKey: 'a', rollout: 30 }, { variantKey: 'b', rollout: 20 }],
    });
    t.deepEqual(rule.distributions.map((d) => [d.ruleId, d.variantId, d.rollout]), [[rule.id, idOf.get('c'), 50], [rule.id, idOf.get('a'), 30], [rule.id, idOf.get('b'), 20]]);
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, rule.distributions);
    const changes = changesOf(h(), ns).slice(announced);
    t.is(changes.length, 1, 'one write');
    t.like(changes[0]!.record, { resource: 'rule', action: 'created' });
    t.is((changes[0]!.record.after as { distributions: unknown[] }).distributions.length, 3);
    const state = await store.readNamespaceState(ns);
    t.deepEqual(state!.rules[0]!.distributions.map((d) => d.rollout), [50, 30, 20], 'the snapshot reads them in the same order');
  });

  test(`${dialect}: an unknown variant key is refused naming it, and nothing is written`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'f', ['a']);
    await createSegment(store, ns, 's');
    const revision = await store.revision(ns);
    await rejects(
      t,
      store.rules.create({ ...ruleRequest(ns, 'f', ['s'], 1), distributions: [{ variantKey: 'a', rollout: 50 }, { variantKey: 'zz', rollout: 50 }] }),
      Code.InvalidArgument,
      `invalid field distributions[1].variantKey: flag "${ns}/f" has no variant "zz"`,
    );
    t.is(await store.revision(ns), revision);
    t.is((await store.rules.list(ns, 'f', { limit: 0, offset: 0 })).totalCount, 0);
  });

  test(`${dialect}: in a batch, variants made earlier are found by key for distributions and the default`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    const before = await store.revision(ns);
    await store.batch(ns, async () => {
      await store.flags.create({ namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
      for (const key of ['on', 'off']) await store.variants.create({ namespaceKey: ns, flagKey: 'f', key, name: key, description: '', attachment: '' });
      await store.rules.create({ ...ruleRequest(ns, 'f', ['s'], 1), distributions: [{ variantKey: 'off', rollout: 10 }, { variantKey: 'on', rollout: 90 }] });
      await store.flags.update({ namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: true, defaultVariantId: '', defaultVariantKey: 'on', metadata: undefined });
    });
    t.is(await store.revision(ns), before + 1);
    const flag = await store.flags.get(ns, 'f');
    t.is(flag.defaultVariant?.key, 'on');
    const [rule] = (await store.rules.list(ns, 'f', { limit: 0, offset: 0 })).items;
    const keyOf = new Map(flag.variants.map((v) => [v.id, v.key]));
    t.deepEqual(rule!.distributions.map((d) => [keyOf.get(d.variantId), d.rollout]), [['off', 10], ['on', 90]]);
  });

  test(`${dialect}: a default variant key the flag lacks is refused, and the default stays`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a']);
    await store.flags.update({ namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: true, defaultVariantId: flag.variants[0]!.id, metadata: undefined });
    await rejects(
      t,
      store.flags.update({ namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: true, defaultVariantId: '', defaultVariantKey: 'b', metadata: undefined }),
      Code.InvalidArgument,
      `invalid field defaultVariantKey: flag "${ns}/f" has no variant "b"`,
    );
    t.is((await store.flags.get(ns, 'f')).defaultVariant?.key, 'a');
  });
}
