import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest } from './helpers/fixtures.js';
import { rejects, useStore } from './helpers/store-harness.js';

const ALL = { limit: 0, offset: 0 };

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a rule with one segment reports it in segmentKey, with several in segmentKeys`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    for (const s of ['s1', 's2', 's3']) await createSegment(store, ns, s);

    const one = await store.rules.create(ruleRequest(ns, 'f', ['s1'], 1));
    t.deepEqual(one, {
      id: one.id,
      namespaceKey: ns,
      flagKey: 'f',
      segmentKey: 's1',
      segmentKeys: [],
      segmentOperator: 'OR_SEGMENT_OPERATOR',
      distributions: [],
      rank: 1,
      createdAt: one.createdAt,
      updatedAt: one.createdAt,
    });

    const many = await store.rules.create({ ...ruleRequest(ns, 'f', ['s3', 's1'], 2), segmentOperator: 'AND_SEGMENT_OPERATOR' });
    t.like(many, { segmentKey: '', segmentKeys: ['s3', 's1'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
    t.deepEqual(await store.rules.get(ns, 'f', many.id), many);

    // A single segment is always OR.
    const single = await store.rules.update({ namespaceKey: ns, flagKey: 'f', id: many.id, segmentKey: '', segmentKeys: ['s2'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
    t.like(single, { id: many.id, segmentKey: 's2', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 2, createdAt: many.createdAt });
    t.true(single.updatedAt > many.updatedAt);

    const back = await store.rules.update({ namespaceKey: ns, flagKey: 'f', id: many.id, segmentKey: '', segmentKeys: ['s1', 's2', 's3'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
    t.like(back, { segmentKey: '', segmentKeys: ['s1', 's2', 's3'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
    t.deepEqual((await store.rules.list(ns, 'f', ALL)).items, [one, back]);
  });

  test(`${dialect}: rules need an existing variant flag and existing segments`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    await createFlag(store, ns, 'bool', 'BOOLEAN_FLAG_TYPE');
    await createSegment(store, ns, 's');
    await rejects(t, store.rules.create(ruleRequest(ns, 'ghost', ['s'], 1)), Code.NotFound, `flag "${ns}/ghost" or segment "${ns}/s" not found`);
    await rejects(t, store.rules.create(ruleRequest(ns, 'f', ['s', 'nope'], 1)), Code.NotFound, `flag "${ns}/f" or segment "${ns}/nope" not found`);
    await rejects(t, store.rules.create(ruleRequest(ns, 'bool', ['s'], 1)), Code.InvalidArgument, `flag "${ns}/bool" is not a variant flag`);
    await rejects(t, store.rules.create(ruleRequest(ns, 'f', [], 1)), Code.InvalidArgument, 'invalid field segmentKey or segmentKeys: must not be empty');
    t.is((await store.rules.list(ns, 'f', ALL)).totalCount, 0);

    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    const update = { namespaceKey: ns, flagKey: 'f', id: rule.id, segmentKey: '', segmentOperator: 'OR_SEGMENT_OPERATOR' as const };
    await rejects(t, store.rules.update({ ...update, segmentKeys: ['nope'] }), Code.NotFound, `flag "${ns}/f" or segment "${ns}/nope" not found`);
    await rejects(t, store.rules.update({ ...update, id: 'nope', segmentKeys: ['s'] }), Code.NotFound, `rule "${ns}/nope" not found`);
    await rejects(t, store.rules.update({ ...update, flagKey: 'bool', segmentKeys: ['s'] }), Code.NotFound, `rule "${ns}/${rule.id}" not found`);
    await rejects(t, store.rules.get(ns, 'f', 'nope'), Code.NotFound, `rule "${ns}/nope" not found`);
    await rejects(t, store.rules.get(ns, 'bool', rule.id), Code.NotFound, `rule "${ns}/${rule.id}" not found`);
    t.deepEqual(await store.rules.get(ns, 'f', rule.id), rule);
  });

  test(`${dialect}: ordering rules needs every rule of the flag exactly once`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    await createSegment(store, ns, 's');
    const [r1, r2, r3] = [
      await store.rules.create(ruleRequest(ns, 'f', ['s'], 1)),
      await store.rules.create(ruleRequest(ns, 'f', ['s'], 2)),
      await store.rules.create(ruleRequest(ns, 'f', ['s'], 3)),
    ];
    const order = (ids: string[]) => store.rules.order({ namespaceKey: ns, flagKey: 'f', ids });
    const message = `invalid field ruleIds: must contain each rule of flag "${ns}/f" exactly once`;
    await rejects(t, order([r1.id, r2.id]), Code.InvalidArgument, message);
    await rejects(t, order([r1.id, r2.id, r2.id]), Code.InvalidArgument, message);
    await rejects(t, order([r1.id, r2.id, r3.id, 'other']), Code.InvalidArgument, message);
    await rejects(t, order([r1.id, r2.id, 'other']), Code.InvalidArgument, message);
    await rejects(t, store.rules.order({ namespaceKey: ns, flagKey: 'ghost', ids: [r1.id, r2.id] }), Code.NotFound, `flag "${ns}/ghost" not found`);
    t.deepEqual((await store.rules.list(ns, 'f', ALL)).items.map((r) => [r.id, r.rank]), [[r1.id, 1], [r2.id, 2], [r3.id, 3]]);

    await order([r3.id, r1.id, r2.id]);
    t.deepEqual((await store.rules.list(ns, 'f', ALL)).items.map((r) => [r.id, r.rank]), [[r3.id, 1], [r1.id, 2], [r2.id, 3]]);

    await store.rules.delete(ns, 'f', r1.id);
    t.deepEqual((await store.rules.list(ns, 'f', ALL)).items.map((r) => [r.id, r.rank]), [[r3.id, 1], [r2.id, 2]]);
    await t.notThrowsAsync(store.rules.delete(ns, 'f', r1.id));
    await t.notThrowsAsync(store.rules.delete(ns, 'ghost', r2.id));
    t.is((await store.rules.list(ns, 'f', ALL)).totalCount, 2);
  });

  test(`${dialect}: distributions are created, embedded by creation, updated and deleted`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const [a, b] = flag.variants;
    if (a === undefined || b === undefined) return t.fail();
    await createSegment(store, ns, 's');
    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));

    const d1 = await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: a.id, rollout: 33.3 });
    t.deepEqual(d1, { id: d1.id, ruleId: rule.id, variantId: a.id, rollout: 33.3, createdAt: d1.createdAt, updatedAt: d1.createdAt });
    const d2 = await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: b.id, rollout: 66.7 });
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, [d1, d2]);

    const updated = await store.distributions.update({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, id: d1.id, variantId: b.id, rollout: 50 });
    t.deepEqual(updated, { ...d1, variantId: b.id, rollout: 50, updatedAt: updated.updatedAt });
    t.true(updated.updatedAt > d1.updatedAt);

    // Deleting needs the variant the distribution is for.
    await store.distributions.delete({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, id: d1.id, variantId: a.id });
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, [updated, d2]);
    await store.distributions.delete({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, id: d1.id, variantId: b.id });
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, [d2]);
  });

  test(`${dialect}: a distribution's rule and variant must belong to the flag`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const f = await flagWithVariants(store, ns, 'f', ['a']);
    const g = await flagWithVariants(store, ns, 'g', ['x']);
    await createSegment(store, ns, 's');
    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    const a = f.variants[0]?.id ?? '';
    const x = g.variants[0]?.id ?? '';
    const req = { namespaceKey: ns, flagKey: 'f', ruleId: rule.id, rollout: 10 };
    const missing = (v: string, r: string, fl: string) => `variant "${v}", rule "${r}", flag "${fl}" in namespace "${ns}" not found`;
    await rejects(t, store.distributions.create({ ...req, variantId: x }), Code.NotFound, missing(x, rule.id, 'f'));
    await rejects(t, store.distributions.create({ ...req, variantId: 'nope' }), Code.NotFound, missing('nope', rule.id, 'f'));
    await rejects(t, store.distributions.create({ ...req, ruleId: 'nope', variantId: a }), Code.NotFound, missing(a, 'nope', 'f'));
    await rejects(t, store.distributions.create({ ...req, flagKey: 'g', variantId: x }), Code.NotFound, missing(x, rule.id, 'g'));

    const d = await store.distributions.create({ ...req, variantId: a });
    await rejects(t, store.distributions.update({ ...req, id: d.id, variantId: x }), Code.NotFound, missing(x, rule.id, 'f'));
    await rejects(t, store.distributions.update({ ...req, id: 'nope', variantId: a }), Code.NotFound, 'distribution "nope" not found');
    // A delete through another flag finds nothing.
    await store.distributions.delete({ namespaceKey: ns, flagKey: 'g', ruleId: rule.id, id: d.id, variantId: a });
    t.deepEqual((await store.rules.get(ns, 'f', rule.id)).distributions, [d]);
  });

  test(`${dialect}: deleting a rule removes its distributions with it`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const f = await flagWithVariants(store, ns, 'f', ['a']);
    await createSegment(store, ns, 's');
    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    const d = await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: f.variants[0]?.id ?? '', rollout: 100 });
    await store.rules.delete(ns, 'f', rule.id);
    await rejects(t, store.rules.get(ns, 'f', rule.id), Code.NotFound, `rule "${ns}/${rule.id}" not found`);
    await rejects(
      t,
      store.distributions.update({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, id: d.id, variantId: d.variantId, rollout: 1 }),
      Code.NotFound,
      `variant "${d.variantId}", rule "${rule.id}", flag "f" in namespace "${ns}" not found`,
    );
  });
}
