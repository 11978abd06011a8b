import test from 'ava';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { changesOf, lastChange, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a segment or constraint edit changes every flag using the segment, and no other`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    for (const key of ['s', 'other', 'unused']) await createSegment(store, ns, key);
    // `ruled` uses s in one rule of two, `rolled` in a rollout with `other`; `bystander` only uses `other`.
    await flagWithVariants(store, ns, 'ruled', ['a']);
    await store.rules.create(ruleRequest(ns, 'ruled', ['other'], 1));
    await store.rules.create(ruleRequest(ns, 'ruled', ['s'], 2));
    await createFlag(store, ns, 'rolled', 'BOOLEAN_FLAG_TYPE');
    await store.rollouts.create(segmentRollout(ns, 'rolled', 1, ['other', 's']));
    await store.rollouts.create(thresholdRollout(ns, 'rolled', 2));
    await flagWithVariants(store, ns, 'bystander', ['x']);
    await store.rules.create(ruleRequest(ns, 'bystander', ['other'], 1));
    const users = ['rolled', 'ruled'];

    await store.segments.update({ namespaceKey: ns, key: 's', name: 'renamed', description: '', matchType: 'ANY_MATCH_TYPE' });
    const segmentEdit = lastChange(h(), ns);
    await expectFlagsEffect(t, store, segmentEdit, users, 'segment update');
    if (segmentEdit.effect.kind !== 'flags') return;
    t.deepEqual(segmentEdit.effect.state.flags.map((f) => f.key), ['ruled', 'rolled']);
    t.deepEqual(segmentEdit.effect.state.segments.map((s) => [s.key, s.matchType]), [['s', 'ANY_MATCH_TYPE'], ['other', 'ALL_MATCH_TYPE']]);
    t.deepEqual(segmentEdit.effect.state.rules.map((r) => [r.flagKey, r.rank, r.segmentKeysInOrder]), [['ruled', 1, ['other']], ['ruled', 2, ['s']]]);
    t.deepEqual(segmentEdit.effect.state.rollouts.map((r) => r.segmentKeysInOrder), [['other', 's'], []]);

    const constraintReq = { namespaceKey: ns, segmentKey: 's', type: 'STRING_COMPARISON_TYPE' as const, property: 'p', operator: 'eq', value: 'v', description: '' };
    const constraint = await store.constraints.create(constraintReq);
    await expectFlagsEffect(t, store, lastChange(h(), ns), users, 'constraint create');
    const created = lastChange(h(), ns).effect;
    t.deepEqual(created.kind === 'flags' ? created.state.segments.find((s) => s.key === 's')?.constraints : undefined, [constraint]);
    await store.constraints.update({ ...constraintReq, id: constraint.id, value: 'w' });
    await expectFlagsEffect(t, store, lastChange(h(), ns), users, 'constraint update');
    await store.constraints.delete(ns, 's', constraint.id);
    await expectFlagsEffect(t, store, lastChange(h(), ns), users, 'constraint delete');

    // Edits of a segment no flag uses change nothing evaluation sees.
    await store.segments.update({ namespaceKey: ns, key: 'unused', name: 'u', description: '', matchType: 'ANY_MATCH_TYPE' });
    t.deepEqual(lastChange(h(), ns).effect, { kind: 'none' });
    const unusedConstraint = await store.constraints.create({ ...constraintReq, segmentKey: 'unused' });
    t.deepEqual(lastChange(h(), ns).effect, { kind: 'none' });
    await store.constraints.delete(ns, 'unused', unusedConstraint.id);
    t.deepEqual(lastChange(h(), ns).effect, { kind: 'none' });
    await store.segments.delete(ns, 'unused');
    t.like(lastChange(h(), ns), { record: { resource: 'segment', action: 'deleted' }, effect: { kind: 'none' } });
  });

  test(`${dialect}: a reorder is one change whose effect holds the flag's rules (rollouts) in their new order`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    await flagWithVariants(store, ns, 'f', ['a']);
    const rules = [];
    for (const rank of [1, 2, 3]) rules.push(await store.rules.create(ruleRequest(ns, 'f', ['s'], rank)));
    const ids = [rules[2]?.id, rules[0]?.id, rules[1]?.id] as string[];
    const count = changesOf(h(), ns).length;
    await store.rules.order({ namespaceKey: ns, flagKey: 'f', ids });
    t.is(changesOf(h(), ns).length, count + 1);
    const ruleOrder = lastChange(h(), ns);
    t.like(ruleOrder.record, { resource: 'rule', key: 'f', action: 'reordered', after: ids });
    await expectFlagsEffect(t, store, ruleOrder, ['f'], 'rules order');
    if (ruleOrder.effect.kind === 'flags') {
      t.deepEqual(ruleOrder.effect.state.rules.map((r) => [r.id, r.rank]), ids.map((id, i) => [id, i + 1]));
    }

    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    const first = await store.rollouts.create(thresholdRollout(ns, 'b', 1));
    const second = await store.rollouts.create(segmentRollout(ns, 'b', 2, ['s']));
    await store.rollouts.order({ namespaceKey: ns, flagKey: 'b', ids: [second.id, first.id] });
    const rolloutOrder = lastChange(h(), ns);
    t.like(rolloutOrder.record, { resource: 'rollout', key: 'b', action: 'reordered', before: [first.id, second.id], after: [second.id, first.id] });
    await expectFlagsEffect(t, store, rolloutOrder, ['b'], 'rollouts order');

    // Deleting one renumbers the rest in the same write; the effect shows the result.
    await store.rules.delete(ns, 'f', ids[0] ?? '');
    const ruleDelete = lastChange(h(), ns);
    await expectFlagsEffect(t, store, ruleDelete, ['f'], 'rule delete');
    if (ruleDelete.effect.kind === 'flags') t.deepEqual(ruleDelete.effect.state.rules.map((r) => r.rank), [1, 2]);
  });

  test(`${dialect}: a variant delete shows the flag without it and without its distributions and default`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const [a, b] = flag.variants.map((v) => v.id) as [string, string];
    await store.flags.update({ namespaceKey: ns, key: 'f', name: 'f', description: '', enabled: true, defaultVariantId: a, metadata: undefined });
    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: a, rollout: 50 });
    await store.distributions.create({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, variantId: b, rollout: 50 });
    await store.variants.delete(ns, 'f', a);
    const change = lastChange(h(), ns);
    await expectFlagsEffect(t, store, change, ['f'], 'variant delete');
    if (change.effect.kind !== 'flags') return;
    t.is(change.effect.state.flags[0]?.defaultVariant, undefined);
    t.deepEqual(change.effect.state.flags[0]?.variants.map((v) => v.key), ['b']);
    t.deepEqual(change.effect.state.rules[0]?.distributions.map((d) => d.variantId), [b]);
  });

  test(`${dialect}: deleting a namespace with everything in it is one change`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    await flagWithVariants(store, ns, 'f', ['a']);
    await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await store.rollouts.create(segmentRollout(ns, 'b', 1, ['s']));
    await store.namespaces.update({ key: ns, name: 'renamed', description: '' });
    t.deepEqual(lastChange(h(), ns).effect, { kind: 'none' });
    const namespace = await store.namespaces.get(ns);
    const revision = await store.revision(ns);
    const count = changesOf(h(), ns).length;

    await store.namespaces.delete(ns, true);
    t.is(changesOf(h(), ns).length, count + 1);
    const { record, effect } = lastChange(h(), ns);
    t.deepEqual(effect, { kind: 'namespace-deleted' });
    t.like(record, { revision: revision + 1, resource: 'namespace', key: ns, action: 'deleted', before: namespace });
    t.false('after' in record);
    t.is(await store.readNamespaceState(ns), undefined);
  });

  test(`${dialect}: flag writes in a namespace of many flags report that flag only`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 's');
    for (const key of ['a', 'b', 'c']) {
      await flagWithVariants(store, ns, key, ['v']);
      await store.rules.create(ruleRequest(ns, key, ['s'], 1));
    }
    await store.flags.update({ namespaceKey: ns, key: 'b', name: 'B', description: '', enabled: false, defaultVariantId: '', metadata: undefined });
    await expectFlagsEffect(t, store, lastChange(h(), ns), ['b'], 'flag update');
    await store.flags.delete(ns, 'c');
    await expectFlagsEffect(t, store, lastChange(h(), ns), ['c'], 'flag delete');
    t.like(lastChange(h(), ns).effect, { kind: 'flags', removed: ['c'], state: { flags: [], rules: [], rollouts: [], segments: [] } });
  });
}
