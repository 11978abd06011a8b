import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants } from './helpers/fixtures.js';
import { rejects, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a created flag has no variants, no default variant and no metadata`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await store.flags.create({
      namespaceKey: ns,
      key: 'color',
      name: 'Color',
      description: 'the colour',
      enabled: true,
      type: 'VARIANT_FLAG_TYPE',
      metadata: undefined,
    });
    t.deepEqual(flag, {
      namespaceKey: ns,
      key: 'color',
      name: 'Color',
      description: 'the colour',
      enabled: true,
      type: 'VARIANT_FLAG_TYPE',
      createdAt: flag.createdAt,
      updatedAt: flag.createdAt,
      variants: [],
    });
    t.false('defaultVariant' in flag);
    t.false('metadata' in flag);
    t.deepEqual(await store.flags.get(ns, 'color'), flag);
    // COMPAT(flipt): a list reports `{}` where a get omits the metadata.
    const [listed] = (await store.flags.list(ns, { limit: 0, offset: 0 })).items;
    t.deepEqual(listed, { ...flag, metadata: {} });
  });

  test(`${dialect}: metadata is stored on create, left alone when not sent, replaced, and cleared by {}`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const base = { namespaceKey: ns, key: 'meta', name: 'Meta', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE' as const };
    const created = await store.flags.create({ ...base, metadata: { team: 'web', nested: { n: 1, list: [true, null] } } });
    t.deepEqual(created.metadata, { team: 'web', nested: { n: 1, list: [true, null] } });
    t.is(created.type, 'BOOLEAN_FLAG_TYPE');
    t.false(created.enabled);

    const update = { namespaceKey: ns, key: 'meta', name: 'Meta 2', description: 'd', enabled: true, defaultVariantId: '' };
    const untouched = await store.flags.update({ ...update, metadata: undefined });
    t.deepEqual(untouched.metadata, { team: 'web', nested: { n: 1, list: [true, null] } });
    t.like(untouched, { name: 'Meta 2', description: 'd', enabled: true, type: 'BOOLEAN_FLAG_TYPE' });

    t.deepEqual((await store.flags.update({ ...update, metadata: { team: 'api' } })).metadata, { team: 'api' });
    const cleared = await store.flags.update({ ...update, metadata: {} });
    t.false('metadata' in cleared);
    t.false('metadata' in (await store.flags.get(ns, 'meta')));
  });

  test(`${dialect}: variants are embedded by creation and a default variant is set, replaced and cleared`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    const blue = await store.variants.create({ namespaceKey: ns, flagKey: 'f', key: 'blue', name: 'Blue', description: 'b', attachment: '{"hex":"#00f"}' });
    t.deepEqual(blue, {
      id: blue.id,
      namespaceKey: ns,
      flagKey: 'f',
      key: 'blue',
      name: 'Blue',
      description: 'b',
      attachment: '{"hex":"#00f"}',
      createdAt: blue.createdAt,
      updatedAt: blue.createdAt,
    });
    t.regex(blue.id, /^[0-9a-f-]{36}$/);
    const aqua = await store.variants.create({ namespaceKey: ns, flagKey: 'f', key: 'aqua', name: '', description: '', attachment: '' });
    t.is(aqua.attachment, '');

    const flagUpdate = { namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: true, metadata: undefined };
    const withDefault = await store.flags.update({ ...flagUpdate, defaultVariantId: blue.id });
    t.deepEqual(withDefault.variants, [blue, aqua]);
    t.deepEqual(withDefault.defaultVariant, blue);

    // A full replace: omitting the default variant clears it.
    const without = await store.flags.update({ ...flagUpdate, defaultVariantId: '' });
    t.false('defaultVariant' in without);
    t.deepEqual(without.variants, [blue, aqua]);
  });

  test(`${dialect}: a default variant must be one of the flag's own variants`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'mine', ['a']);
    const other = await flagWithVariants(store, ns, 'other', ['b']);
    const foreign = other.variants[0]?.id ?? '';
    const req = { namespaceKey: ns, key: 'mine', name: 'changed', description: '', enabled: true, metadata: undefined };
    await rejects(t, store.flags.update({ ...req, defaultVariantId: foreign }), Code.InvalidArgument, `variant "${foreign}" not found for flag "${ns}/mine"`);
    await rejects(t, store.flags.update({ ...req, defaultVariantId: 'nope' }), Code.InvalidArgument, `variant "nope" not found for flag "${ns}/mine"`);
    t.is((await store.flags.get(ns, 'mine')).name, 'mine');
  });

  test(`${dialect}: flag errors carry Flipt's messages`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'dup');
    await rejects(t, createFlag(store, ns, 'dup'), Code.InvalidArgument, `flag "${ns}/dup" is not unique`);
    await rejects(t, store.flags.get(ns, 'ghost'), Code.NotFound, `flag "${ns}/ghost" not found`);
    await rejects(
      t,
      store.flags.update({ namespaceKey: ns, key: 'ghost', name: 'x', description: '', enabled: true, defaultVariantId: '', metadata: undefined }),
      Code.NotFound,
      `flag "${ns}/ghost" not found`,
    );
    await t.notThrowsAsync(store.flags.delete(ns, 'ghost'));
    // The same key in another namespace is a different flag.
    t.is((await createFlag(store, 'default', `dup-${ns}`)).namespaceKey, 'default');
  });

  test(`${dialect}: variant errors carry Flipt's messages`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const [a, b] = flag.variants;
    const variant = (key: string) => ({ namespaceKey: ns, flagKey: 'f', key, name: '', description: '', attachment: '' });
    await rejects(t, store.variants.create(variant('a')), Code.InvalidArgument, `variant "a" is not unique for flag "${ns}/f"`);
    await rejects(t, store.variants.update({ ...variant('a'), id: b?.id ?? '' }), Code.InvalidArgument, `variant "a" is not unique for flag "${ns}/f"`);
    await rejects(t, store.variants.create({ ...variant('x'), flagKey: 'ghost' }), Code.NotFound, `flag "${ns}/ghost" not found`);
    await rejects(t, store.variants.update({ ...variant('x'), id: 'no-such-id' }), Code.NotFound, 'variant "x" not found');
    // A variant is addressed through its own flag.
    await createFlag(store, ns, 'g');
    await rejects(t, store.variants.update({ ...variant('x'), flagKey: 'g', id: a?.id ?? '' }), Code.NotFound, 'variant "x" not found');
    await t.notThrowsAsync(store.variants.delete(ns, 'f', 'no-such-id'));
    t.deepEqual((await store.flags.get(ns, 'f')).variants, [a, b]);
    // The same variant key on another flag is fine.
    t.is((await store.variants.create({ ...variant('a'), flagKey: 'g' })).key, 'a');
  });

  test(`${dialect}: updating a variant replaces its fields and keeps its id and creation time`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const [v] = (await flagWithVariants(store, ns, 'f', ['a'])).variants;
    if (v === undefined) return t.fail();
    const updated = await store.variants.update({ id: v.id, namespaceKey: ns, flagKey: 'f', key: 'a2', name: 'A2', description: 'dd', attachment: '[1,2]' });
    t.deepEqual(updated, { ...v, key: 'a2', name: 'A2', description: 'dd', attachment: '[1,2]', updatedAt: updated.updatedAt });
    t.true(updated.updatedAt > v.updatedAt);
    t.deepEqual((await store.flags.get(ns, 'f')).variants, [updated]);
  });

  test(`${dialect}: deleting a variant removes its distributions and clears it as the default`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const [a, b] = flag.variants;
    if (a === undefined || b === undefined) return t.fail();
    await store.flags.update({ namespaceKey: ns, key: 'f', name: 'f', description: '', enabled: true, defaultVariantId: a.id, metadata: undefined });
    await createSegment(store, ns, 's');
    const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'f', segmentKey: '', segmentKeys: ['s'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: a.id, rollout: 40 });
    const keep = await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: b.id, rollout: 60 });

    await store.variants.delete(ns, 'f', a.id);
    const after = await store.flags.get(ns, 'f');
    t.deepEqual(after.variants, [b]);
    t.false('defaultVariant' in after);
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, [keep]);
  });

  test(`${dialect}: deleting a flag removes its variants, rules, distributions and rollouts`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a']);
    await createSegment(store, ns, 's');
    const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'f', segmentKey: '', segmentKeys: ['s'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: flag.variants[0]?.id ?? '', rollout: 100 });
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await store.rollouts.create({ namespaceKey: ns, flagKey: 'b', rank: 1, description: '', segment: undefined, threshold: { percentage: 10, value: true } });

    await store.flags.delete(ns, 'f');
    await store.flags.delete(ns, 'b');
    await rejects(t, store.flags.get(ns, 'f'), Code.NotFound, `flag "${ns}/f" not found`);
    t.is((await store.rules.list(ns, 'f', { limit: 0, offset: 0 })).totalCount, 0);
    t.is((await store.rollouts.list(ns, 'b', { limit: 0, offset: 0 })).totalCount, 0);
    // Re-creating the flag starts from nothing, and the segment is free again.
    t.deepEqual((await createFlag(store, ns, 'f')).variants, []);
    t.deepEqual((await store.rules.list(ns, 'f', { limit: 0, offset: 0 })).items, []);
    await t.notThrowsAsync(store.segments.delete(ns, 's'));
  });
}
