/**
 * Prerequisites, validity windows, ramps and schedules as the store keeps them, and the steps it
 * takes when their time comes: each checked against what the namespace holds, nothing half-written.
 */
import test from 'ava';
import { Code } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest, thresholdRollout } from './helpers/fixtures.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

/** Far enough ahead of the harness's clock (an hour ahead, a second per write) to be still to come. */
const DAY = 86_400_000;
const START = Date.now();
const future = (days: number): string => new Date(START + days * DAY).toISOString();
/** A time after every step a test sets up. */
const LATER = future(400);

const ALICE = { authenticationId: 'a1', method: 'METHOD_TOKEN', name: 'alice' };

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: prerequisites are stored, answered only when set, and cleared with []`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'parent', 'BOOLEAN_FLAG_TYPE');
    await flagWithVariants(store, ns, 'plan', ['basic', 'pro']);
    const child = await store.flags.create({
      namespaceKey: ns, key: 'child', name: 'child', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined,
      prerequisites: [{ flagKey: 'parent', enabled: true }, { flagKey: 'plan', variants: ['pro'] }],
    });
    t.deepEqual(child.prerequisites, [{ flagKey: 'parent', enabled: true }, { flagKey: 'plan', variants: ['pro'] }]);
    t.false('prerequisites' in (await store.flags.get(ns, 'parent')));
    const kept = await store.flags.update({ namespaceKey: ns, key: 'child', name: 'renamed', description: '', enabled: true, defaultVariantId: '', metadata: undefined });
    t.deepEqual(kept.prerequisites, child.prerequisites, 'an update that does not send them keeps them');
    const cleared = await store.flags.update({ namespaceKey: ns, key: 'child', name: 'child', description: '', enabled: true, defaultVariantId: '', metadata: undefined, prerequisites: [] });
    t.false('prerequisites' in cleared);
  });

  test(`${dialect}: a prerequisite on a missing flag or variant, or closing a cycle, is refused naming it; nothing is written`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'a', 'BOOLEAN_FLAG_TYPE');
    await createFlag(store, ns, 'flag-b', 'BOOLEAN_FLAG_TYPE');
    await flagWithVariants(store, ns, 'plan', ['basic']);
    const update = (key: string, prerequisites: Array<{ flagKey: string; enabled?: boolean; variants?: string[] }>) =>
      store.flags.update({ namespaceKey: ns, key, name: key, description: '', enabled: true, defaultVariantId: '', metadata: undefined, prerequisites });
    await rejects(t, update('a', [{ flagKey: 'ghost', enabled: true }]), Code.InvalidArgument, `invalid field prerequisites[0].flagKey: flag "${ns}/ghost" not found`);
    await rejects(t, update('a', [{ flagKey: 'plan', variants: ['basic', 'gold'] }]), Code.InvalidArgument, 'invalid field prerequisites[0].variants: flag "plan" has no variant "gold"');
    await rejects(t, update('a', [{ flagKey: 'flag-b', variants: ['on'] }]), Code.InvalidArgument, 'invalid field prerequisites[0].variants: flag "flag-b" is a boolean flag; ask for enabled: true or false');
    await update('a', [{ flagKey: 'flag-b', enabled: true }]);
    await rejects(t, update('flag-b', [{ flagKey: 'a', enabled: true }]), Code.InvalidArgument, 'invalid field prerequisites[0].flagKey: would close a cycle: flag-b → a → flag-b');
    t.false('prerequisites' in (await store.flags.get(ns, 'flag-b')), 'the refused update left nothing');
  });

  test(`${dialect}: a flag others require, or a variant they ask for, cannot be deleted (409 naming them)`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const plan = await flagWithVariants(store, ns, 'plan', ['pro']);
    await store.flags.create({ namespaceKey: ns, key: 'dep-1', name: 'd', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined, prerequisites: [{ flagKey: 'plan', variants: ['pro'] }] });
    await store.flags.create({ namespaceKey: ns, key: 'dep-2', name: 'd', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined, prerequisites: [{ flagKey: 'plan', enabled: true }] });
    await rejects(t, store.flags.delete(ns, 'plan'), Code.FailedPrecondition, `flag "${ns}/plan" is a prerequisite of "dep-1", "dep-2"; remove it from their prerequisites first`);
    await rejects(t, store.variants.delete(ns, 'plan', plan.variants[0]!.id), Code.FailedPrecondition, `variant "pro" of flag "${ns}/plan" is required by the prerequisites of "dep-1"`);
    t.is((await store.flags.get(ns, 'plan')).variants.length, 1);
    await store.flags.delete(ns, 'dep-1');
    await store.flags.delete(ns, 'dep-2');
    await store.flags.delete(ns, 'plan');
    await t.throwsAsync(store.flags.get(ns, 'plan'));
  });

  test(`${dialect}: a rule's window: set bounds answered, unsent bounds kept, "" clears, from ≥ until refused`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'f', ['on']);
    await createSegment(store, ns, 's');
    const from = future(1);
    const until = future(2);
    const rule = await store.rules.create({ ...ruleRequest(ns, 'f', ['s'], 1), validFrom: from, validUntil: until });
    t.is(rule.validFrom, from);
    t.is(rule.validUntil, until);
    const base = { namespaceKey: ns, flagKey: 'f', id: rule.id, segmentKey: '', segmentKeys: ['s'], segmentOperator: 'OR_SEGMENT_OPERATOR' as const };
    const kept = await store.rules.update(base);
    t.is(kept.validFrom, from);
    t.is(kept.validUntil, until);
    await rejects(t, store.rules.update({ ...base, validFrom: future(3) }), Code.InvalidArgument, `invalid field validUntil: must be later than validFrom (${future(3)})`);
    t.is((await store.rules.get(ns, 'f', rule.id)).validFrom, from, 'the refused update left nothing');
    const cleared = await store.rules.update({ ...base, validFrom: '' });
    t.false('validFrom' in cleared);
    t.is(cleared.validUntil, until);
  });

  test(`${dialect}: a ramp is kept when a threshold is sent without one, and must still rise from its percentage`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    const ramp = [{ at: future(1), percentage: 25 }, { at: future(2), percentage: 100 }];
    const rollout = await store.rollouts.create({ ...thresholdRollout(ns, 'b', 1, 10), threshold: { percentage: 10, value: true, ramp } });
    t.deepEqual(rollout.threshold, { percentage: 10, value: true, ramp });
    const update = { namespaceKey: ns, flagKey: 'b', id: rollout.id, description: '', segment: undefined };
    const kept = await store.rollouts.update({ ...update, threshold: { percentage: 20, value: true } });
    t.deepEqual(kept.threshold, { percentage: 20, value: true, ramp });
    await rejects(t, store.rollouts.update({ ...update, threshold: { percentage: 30, value: true } }), Code.InvalidArgument, 'invalid field threshold.ramp[0].percentage: must rise: 25 is not above 30 (threshold.percentage)');
    const cleared = await store.rollouts.update({ ...update, threshold: { percentage: 30, value: true, ramp: [] } });
    t.deepEqual(cleared.threshold, { percentage: 30, value: true });
  });

  test(`${dialect}: schedules are listed by time, carried by the snapshot while pending, and cancelled once`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f', 'BOOLEAN_FLAG_TYPE');
    const late = await h().as(ALICE, () => store.schedules.create({ namespaceKey: ns, flagKey: 'f', at: future(2), enabled: true }));
    const early = await store.schedules.create({ namespaceKey: ns, flagKey: 'f', at: future(1), enabled: false });
    t.like(late, { namespaceKey: ns, flagKey: 'f', enabled: true, status: 'pending', createdBy: ALICE });
    t.deepEqual((await store.schedules.list(ns, 'f')).map((s) => s.id), [early.id, late.id]);
    const effect = changesOf(h(), ns).at(-1)!.effect;
    t.is(effect.kind, 'flags');
    if (effect.kind === 'flags') t.deepEqual(effect.state.schedules, [{ flagKey: 'f', at: early.at, enabled: false }, { flagKey: 'f', at: late.at, enabled: true }]);
    const cancelled = await store.schedules.delete(ns, 'f', early.id);
    t.is(cancelled.status, 'cancelled');
    await rejects(t, store.schedules.delete(ns, 'f', early.id), Code.FailedPrecondition, `schedule "${early.id}" of flag "${ns}/f" is cancelled, not pending`);
    await rejects(t, store.schedules.delete(ns, 'f', 'nope'), Code.NotFound, 'schedule "nope" not found');
    await rejects(t, store.schedules.list(ns, 'ghost'), Code.NotFound, `flag "${ns}/ghost" not found`);
    const last = changesOf(h(), ns).at(-1)!;
    if (last.effect.kind === 'flags') t.deepEqual(last.effect.state.schedules.map((s) => s.at), [late.at]);
  });

  test(`${dialect}: due steps are taken once, in order, recorded as stepped by the schedule that set them`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f', 'BOOLEAN_FLAG_TYPE');
    const schedule = await h().as(ALICE, () => store.schedules.create({ namespaceKey: ns, flagKey: 'f', at: future(1), enabled: false }));
    await store.rollouts.create({ ...thresholdRollout(ns, 'f', 1, 10), validUntil: future(3), threshold: { percentage: 10, value: true, ramp: [{ at: future(2), percentage: 60 }] } });
    const due = (await store.schedules.due(LATER)).filter((s) => s.namespaceKey === ns);
    t.deepEqual(due.map((s) => s.at), [future(1), future(2), future(3)], 'oldest first');
    t.is(due[0]!.id, schedule.id);
    t.true(await store.schedules.apply(due[0]!));
    t.false(await store.schedules.apply(due[0]!), 'a step is taken once');
    t.false((await store.flags.get(ns, 'f')).enabled, 'the schedule set the flag');
    const stepped = changesOf(h(), ns).at(-1)!.record;
    t.like(stepped, { resource: 'flag', key: 'f', action: 'stepped', actor: { authenticationId: schedule.id, method: 'METHOD_SCHEDULE', name: 'schedule set by alice' } });
    t.like((stepped.after as { step: object }).step, { id: schedule.id, kind: 'schedule', enabled: false, scheduledBy: ALICE });
    t.like((await store.schedules.list(ns, 'f'))[0], { status: 'applied' });
    for (const step of due.slice(1)) t.true(await store.schedules.apply(step));
    t.deepEqual((await store.schedules.due(LATER)).filter((s) => s.namespaceKey === ns), []);
  });

  test(`${dialect}: a rule's steps follow its window: rewritten on update, gone with the rule`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'f', ['on']);
    await createSegment(store, ns, 's');
    const rule = await store.rules.create({ ...ruleRequest(ns, 'f', ['s'], 1), validFrom: future(5) });
    const pending = async () => (await store.schedules.due(LATER)).filter((s) => s.namespaceKey === ns).map((s) => s.at);
    t.deepEqual(await pending(), [future(5)]);
    await store.rules.update({ namespaceKey: ns, flagKey: 'f', id: rule.id, segmentKey: '', segmentKeys: ['s'], segmentOperator: 'OR_SEGMENT_OPERATOR', validFrom: future(6), validUntil: future(7) });
    t.deepEqual(await pending(), [future(6), future(7)]);
    await store.rules.delete(ns, 'f', rule.id);
    t.deepEqual(await pending(), []);
  });
}
