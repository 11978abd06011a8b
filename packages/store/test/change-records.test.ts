import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { Actor, ChangeRecord } from '@ensign/core';
import type { CommittedChange } from '@ensign/store';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { changesOf, useStore } from './helpers/store-harness.js';
import type { Harness } from './helpers/store-harness.js';

const ACTOR: Actor = { authenticationId: 'a1b2', method: 'METHOD_TOKEN', name: 'deployer' };

/** A record without the parts every write shares, which `writeAs` checks. */
const about = ({ namespaceKey: _ns, revision: _rev, actor: _actor, at: _at, ...rest }: ChangeRecord) => rest;

/**
 * Runs one write as ACTOR and asserts it announced exactly one change, at the namespace's new
 * revision, made by ACTOR at a stored timestamp; returns the write's value and its change.
 */
async function writeAs<T>(t: ExecutionContext, h: Harness, ns: string, write: () => Promise<T>): Promise<{ value: T; change: CommittedChange }> {
  const count = changesOf(h, ns).length;
  const revision = await h.store.revision(ns);
  const value = await h.as(ACTOR, write);
  const changes = changesOf(h, ns);
  t.is(changes.length, count + 1, 'one change per write');
  const change = changes.at(-1) as CommittedChange;
  t.is(change.record.namespaceKey, ns);
  t.is(change.record.revision, revision + 1);
  // A deleted namespace has no revision to read; its record carries the delete's.
  if (change.effect.kind !== 'namespace-deleted') t.is(await h.store.revision(ns), revision + 1);
  t.deepEqual(change.record.actor, ACTOR);
  t.is(new Date(change.record.at).toISOString(), change.record.at);
  await storedAsAnnounced(t, h, change);
  return { value, change };
}

/** The history's newest entry of the namespace is the record the write announced. */
async function storedAsAnnounced(t: ExecutionContext, h: Harness, change: CommittedChange): Promise<void> {
  const { events } = await h.store.audit.list({ namespaceKey: change.record.namespaceKey, resources: [], actions: [], limit: 1 });
  const { id, ...entry } = events[0] ?? { id: '' };
  t.regex(id, /^\d+$/);
  t.deepEqual(entry, JSON.parse(JSON.stringify(change.record)), 'the history holds what was announced');
}

/** `at` is the write's timestamp, which an updated resource carries as its `updatedAt`. */
const stampedAt = (t: ExecutionContext, change: CommittedChange, value: { updatedAt: string }) => t.is(change.record.at, value.updatedAt);

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: namespace writes are recorded with before, after, actor and effect`, async (t) => {
    const { store } = h();
    const key = `records-${randomUUID().slice(0, 8)}`;
    const created = await h().as(ACTOR, () => store.namespaces.create({ key, name: 'N', description: 'd' }));
    const first = changesOf(h(), key);
    t.is(first.length, 1);
    t.deepEqual(first[0]?.record, { namespaceKey: key, revision: 1, resource: 'namespace', key, action: 'created', after: created, actor: ACTOR, at: created.createdAt });
    t.deepEqual(first[0]?.effect, { kind: 'namespace-created' });

    const updated = await writeAs(t, h(), key, () => store.namespaces.update({ key, name: 'M', description: 'e' }));
    t.deepEqual(about(updated.change.record), { resource: 'namespace', key, action: 'updated', before: created, after: updated.value });
    t.deepEqual(updated.value, await store.namespaces.get(key));
    stampedAt(t, updated.change, updated.value);
    t.deepEqual(updated.change.effect, { kind: 'none' });

    const deleted = await writeAs(t, h(), key, () => store.namespaces.delete(key, false));
    t.deepEqual(about(deleted.change.record), { resource: 'namespace', key, action: 'deleted', before: updated.value });
    t.deepEqual(deleted.change.effect, { kind: 'namespace-deleted' });
  });

  test(`${dialect}: a write without an actor has no actor property`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    const record = changesOf(h(), ns).at(-1)?.record;
    t.like(record, { resource: 'flag', key: 'f', action: 'created' });
    t.false(record !== undefined && 'actor' in record);
    t.false(record !== undefined && 'parentKey' in record);
    t.false(record !== undefined && 'before' in record);
  });

  test(`${dialect}: flag and variant writes`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flagReq = { namespaceKey: ns, key: 'f', name: 'F', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE' as const, metadata: undefined };
    const flag = await writeAs(t, h(), ns, () => store.flags.create(flagReq));
    t.deepEqual(about(flag.change.record), { resource: 'flag', key: 'f', action: 'created', after: flag.value });
    t.deepEqual(flag.value, await store.flags.get(ns, 'f'));
    stampedAt(t, flag.change, flag.value);

    const variantReq = { namespaceKey: ns, flagKey: 'f', key: 'a', name: 'A', description: '', attachment: '' };
    const variant = await writeAs(t, h(), ns, () => store.variants.create(variantReq));
    t.deepEqual(about(variant.change.record), { resource: 'variant', key: variant.value.id, parentKey: 'f', action: 'created', after: variant.value });
    stampedAt(t, variant.change, variant.value);

    const variant2 = await writeAs(t, h(), ns, () => store.variants.update({ ...variantReq, id: variant.value.id, name: 'A2' }));
    t.deepEqual(about(variant2.change.record), { resource: 'variant', key: variant.value.id, parentKey: 'f', action: 'updated', before: variant.value, after: variant2.value });
    t.is(variant2.value.name, 'A2');

    const beforeUpdate = await store.flags.get(ns, 'f');
    const flag2 = await writeAs(t, h(), ns, () =>
      store.flags.update({ ...flagReq, enabled: true, defaultVariantId: variant.value.id, metadata: { team: 'x' } }),
    );
    t.deepEqual(about(flag2.change.record), { resource: 'flag', key: 'f', action: 'updated', before: beforeUpdate, after: flag2.value });
    t.is(flag2.value.defaultVariant?.id, variant.value.id);
    stampedAt(t, flag2.change, flag2.value);

    const variantGone = await writeAs(t, h(), ns, () => store.variants.delete(ns, 'f', variant.value.id));
    t.deepEqual(about(variantGone.change.record), { resource: 'variant', key: variant.value.id, parentKey: 'f', action: 'deleted', before: variant2.value });

    const beforeDelete = await store.flags.get(ns, 'f');
    t.is(beforeDelete.defaultVariant, undefined);
    const flagGone = await writeAs(t, h(), ns, () => store.flags.delete(ns, 'f'));
    t.deepEqual(about(flagGone.change.record), { resource: 'flag', key: 'f', action: 'deleted', before: beforeDelete });
    t.deepEqual(flagGone.change.effect, { kind: 'flags', state: { flags: [], rules: [], rollouts: [], segments: [], schedules: [] }, removed: ['f'] });
  });

  test(`${dialect}: segment and constraint writes`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const segmentReq = { namespaceKey: ns, key: 's', name: 'S', description: '', matchType: 'ALL_MATCH_TYPE' as const };
    const segment = await writeAs(t, h(), ns, () => store.segments.create(segmentReq));
    t.deepEqual(about(segment.change.record), { resource: 'segment', key: 's', action: 'created', after: segment.value });
    t.deepEqual(segment.value, await store.segments.get(ns, 's'));
    t.deepEqual(segment.change.effect, { kind: 'none' });

    const segment2 = await writeAs(t, h(), ns, () => store.segments.update({ ...segmentReq, matchType: 'ANY_MATCH_TYPE' }));
    t.deepEqual(about(segment2.change.record), { resource: 'segment', key: 's', action: 'updated', before: segment.value, after: segment2.value });
    stampedAt(t, segment2.change, segment2.value);

    const constraintReq = { namespaceKey: ns, segmentKey: 's', type: 'STRING_COMPARISON_TYPE' as const, property: 'p', operator: 'eq', value: 'v', description: '' };
    const constraint = await writeAs(t, h(), ns, () => store.constraints.create(constraintReq));
    t.deepEqual(about(constraint.change.record), { resource: 'constraint', key: constraint.value.id, parentKey: 's', action: 'created', after: constraint.value });
    t.deepEqual((await store.segments.get(ns, 's')).constraints, [constraint.value]);

    const constraint2 = await writeAs(t, h(), ns, () => store.constraints.update({ ...constraintReq, id: constraint.value.id, value: 'w' }));
    t.deepEqual(about(constraint2.change.record), { resource: 'constraint', key: constraint.value.id, parentKey: 's', action: 'updated', before: constraint.value, after: constraint2.value });
    t.deepEqual((await store.segments.get(ns, 's')).constraints, [constraint2.value]);
    stampedAt(t, constraint2.change, constraint2.value);

    const constraintGone = await writeAs(t, h(), ns, () => store.constraints.delete(ns, 's', constraint.value.id));
    t.deepEqual(about(constraintGone.change.record), { resource: 'constraint', key: constraint.value.id, parentKey: 's', action: 'deleted', before: constraint2.value });

    const beforeDelete = await store.segments.get(ns, 's');
    const segmentGone = await writeAs(t, h(), ns, () => store.segments.delete(ns, 's'));
    t.deepEqual(about(segmentGone.change.record), { resource: 'segment', key: 's', action: 'deleted', before: beforeDelete });
    t.deepEqual(segmentGone.change.effect, { kind: 'none' });
  });

  test(`${dialect}: rule, distribution and rule order writes`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a', 'b']);
    const [a, b] = flag.variants.map((v) => v.id) as [string, string];
    await createSegment(store, ns, 's1');
    await createSegment(store, ns, 's2');

    const rule = await writeAs(t, h(), ns, () => store.rules.create(ruleRequest(ns, 'f', ['s1'], 1)));
    t.deepEqual(about(rule.change.record), { resource: 'rule', key: rule.value.id, parentKey: 'f', action: 'created', after: rule.value });
    t.deepEqual(rule.value, await store.rules.get(ns, 'f', rule.value.id));
    const rule2 = await writeAs(t, h(), ns, () => store.rules.update({ ...ruleRequest(ns, 'f', ['s2', 's1'], 1), id: rule.value.id }));
    t.deepEqual(about(rule2.change.record), { resource: 'rule', key: rule.value.id, parentKey: 'f', action: 'updated', before: rule.value, after: rule2.value });
    t.deepEqual(rule2.value.segmentKeys, ['s2', 's1']);

    const distReq = { namespaceKey: ns, flagKey: 'f', ruleId: rule.value.id, variantId: a, rollout: 40 };
    const dist = await writeAs(t, h(), ns, () => store.distributions.create(distReq));
    t.deepEqual(about(dist.change.record), { resource: 'distribution', key: dist.value.id, parentKey: 'f', action: 'created', after: dist.value });
    const dist2 = await writeAs(t, h(), ns, () => store.distributions.update({ ...distReq, id: dist.value.id, variantId: b, rollout: 60 }));
    t.deepEqual(about(dist2.change.record), { resource: 'distribution', key: dist.value.id, parentKey: 'f', action: 'updated', before: dist.value, after: dist2.value });
    t.deepEqual((await store.rules.get(ns, 'f', rule.value.id)).distributions, [dist2.value]);
    const distGone = await writeAs(t, h(), ns, () => store.distributions.delete({ ...distReq, id: dist.value.id, variantId: b }));
    t.deepEqual(about(distGone.change.record), { resource: 'distribution', key: dist.value.id, parentKey: 'f', action: 'deleted', before: dist2.value });

    const other = await store.rules.create(ruleRequest(ns, 'f', ['s2'], 2));
    const order = await writeAs(t, h(), ns, () => store.rules.order({ namespaceKey: ns, flagKey: 'f', ids: [other.id, rule.value.id] }));
    t.deepEqual(about(order.change.record), { resource: 'rule', key: 'f', parentKey: 'f', action: 'reordered', before: [rule.value.id, other.id], after: [other.id, rule.value.id] });

    const beforeDelete = await store.rules.get(ns, 'f', other.id);
    const ruleGone = await writeAs(t, h(), ns, () => store.rules.delete(ns, 'f', other.id));
    t.deepEqual(about(ruleGone.change.record), { resource: 'rule', key: other.id, parentKey: 'f', action: 'deleted', before: beforeDelete });
    // The rule left behind was renumbered by the same write, at its time.
    const left = await store.rules.get(ns, 'f', rule.value.id);
    t.is(left.rank, 1);
    t.is(left.updatedAt, ruleGone.change.record.at);
  });

  test(`${dialect}: rollout and rollout order writes`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await createSegment(store, ns, 's');

    const threshold = await writeAs(t, h(), ns, () => store.rollouts.create(thresholdRollout(ns, 'b', 1, 30)));
    t.deepEqual(about(threshold.change.record), { resource: 'rollout', key: threshold.value.id, parentKey: 'b', action: 'created', after: threshold.value });
    t.deepEqual(threshold.value, await store.rollouts.get(ns, 'b', threshold.value.id));
    const updateReq = { namespaceKey: ns, flagKey: 'b', id: threshold.value.id, description: 'more', segment: undefined, threshold: { percentage: 70, value: false } };
    const threshold2 = await writeAs(t, h(), ns, () => store.rollouts.update(updateReq));
    t.deepEqual(about(threshold2.change.record), { resource: 'rollout', key: threshold.value.id, parentKey: 'b', action: 'updated', before: threshold.value, after: threshold2.value });
    t.deepEqual(threshold2.value.threshold, { percentage: 70, value: false });

    const segmentOne = await writeAs(t, h(), ns, () => store.rollouts.create(segmentRollout(ns, 'b', 2, ['s'])));
    const order = await writeAs(t, h(), ns, () => store.rollouts.order({ namespaceKey: ns, flagKey: 'b', ids: [segmentOne.value.id, threshold.value.id] }));
    t.deepEqual(about(order.change.record), {
      resource: 'rollout',
      key: 'b',
      parentKey: 'b',
      action: 'reordered',
      before: [threshold.value.id, segmentOne.value.id],
      after: [segmentOne.value.id, threshold.value.id],
    });

    const beforeDelete = await store.rollouts.get(ns, 'b', segmentOne.value.id);
    const gone = await writeAs(t, h(), ns, () => store.rollouts.delete(ns, 'b', segmentOne.value.id));
    t.deepEqual(about(gone.change.record), { resource: 'rollout', key: segmentOne.value.id, parentKey: 'b', action: 'deleted', before: beforeDelete });
  });

  test(`${dialect}: failed writes and deletes that find nothing announce no change`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const flag = await flagWithVariants(store, ns, 'f', ['a']);
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await createSegment(store, ns, 's');
    const rule = await store.rules.create(ruleRequest(ns, 'f', ['s'], 1));
    const count = changesOf(h(), ns).length;
    const revision = await store.revision(ns);

    await h().as(ACTOR, async () => {
      await t.throwsAsync(createFlag(store, ns, 'f'));
      await t.throwsAsync(store.segments.delete(ns, 's'), { message: `segment "${ns}/s" is in use` });
      await t.throwsAsync(store.rules.order({ namespaceKey: ns, flagKey: 'f', ids: [] }));
      await t.throwsAsync(store.rollouts.create(thresholdRollout(ns, 'f', 1)));
      await t.throwsAsync(store.constraints.update({ namespaceKey: ns, segmentKey: 's', id: 'ghost', type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v', description: '' }));
      await t.throwsAsync(store.namespaces.delete(ns, false));
      await store.flags.delete(ns, 'ghost');
      await store.variants.delete(ns, 'f', 'ghost');
      await store.segments.delete(ns, 'ghost');
      await store.constraints.delete(ns, 's', 'ghost');
      await store.rules.delete(ns, 'f', 'ghost');
      await store.distributions.delete({ namespaceKey: ns, flagKey: 'f', ruleId: rule.id, id: 'ghost', variantId: flag.variants[0]?.id ?? '' });
      await store.rollouts.delete(ns, 'b', 'ghost');
    });

    t.is(changesOf(h(), ns).length, count);
    t.is(await store.revision(ns), revision);
  });
}
