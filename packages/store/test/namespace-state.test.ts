import test from 'ava';
import knexFactory from 'knex';
import type { Rollout, Rule } from '@ensign/core';
import { openStore, parseDatabaseUrl } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants, ruleRequest, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { useStore } from './helpers/store-harness.js';

const ALL = { limit: 0, offset: 0 };

/** A namespace using every kind of row, written in an order that differs from the read order. */
async function populate(store: SqlStore, ns: string): Promise<void> {
  await createSegment(store, ns, 's1');
  await createSegment(store, ns, 's2');
  await store.segments.create({ namespaceKey: ns, key: 'empty', name: 'Empty', description: 'd', matchType: 'ANY_MATCH_TYPE' });
  for (const [property, value] of [['plan', 'pro'], ['age', '30']] as const) {
    await store.constraints.create({ namespaceKey: ns, segmentKey: 's1', type: 'STRING_COMPARISON_TYPE', property, operator: 'eq', value, description: '' });
  }
  await store.constraints.create({ namespaceKey: ns, segmentKey: 's2', type: 'NUMBER_COMPARISON_TYPE', property: 'n', operator: 'gt', value: '3', description: '' });

  // `zeta` is created first, so creation order and key order disagree.
  const zeta = await flagWithVariants(store, ns, 'zeta', ['red', 'blue']);
  const red = zeta.variants[0]?.id ?? '';
  const blue = zeta.variants[1]?.id ?? '';
  await store.flags.update({ namespaceKey: ns, key: 'zeta', name: 'Zeta', description: 'z', enabled: true, defaultVariantId: blue, metadata: { team: 'web' } });
  const r1 = await store.rules.create(ruleRequest(ns, 'zeta', ['s2', 's1'], 1));
  const r2 = await store.rules.create(ruleRequest(ns, 'zeta', ['s1'], 2));
  await store.rules.order({ namespaceKey: ns, flagKey: 'zeta', ids: [r2.id, r1.id] });
  await store.distributions.create({ namespaceKey: ns, flagKey: 'zeta', ruleId: r1.id, variantId: blue, rollout: 70 });
  await store.distributions.create({ namespaceKey: ns, flagKey: 'zeta', ruleId: r1.id, variantId: red, rollout: 30 });

  await createFlag(store, ns, 'alpha', 'BOOLEAN_FLAG_TYPE');
  await store.rollouts.create(segmentRollout(ns, 'alpha', 1, ['s2', 's1']));
  await store.rollouts.create(thresholdRollout(ns, 'alpha', 2, 25));
  await flagWithVariants(store, ns, 'mid', ['only']);
  await store.rules.create(ruleRequest(ns, 'mid', ['s1'], 1));
}

const keysOf = (r: Rule): string[] => (r.segmentKey === '' ? r.segmentKeys : [r.segmentKey]);
const rolloutKeysOf = (r: Rollout): string[] =>
  r.segment === undefined ? [] : r.segment.segmentKey === '' ? r.segment.segmentKeys : [r.segment.segmentKey];

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a namespace's state is every row the management API reports, in snapshot order`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await populate(store, ns);
    // Rows of the same keys in another namespace must not leak in.
    const other = await h().namespace();
    await createSegment(store, other, 's1');
    await flagWithVariants(store, other, 'zeta', ['red']);
    await store.rules.create(ruleRequest(other, 'zeta', ['s1'], 1));

    const state = await store.readNamespaceState(ns);
    if (state === undefined) return t.fail('state missing');
    t.deepEqual(state.namespace, await store.namespaces.get(ns));
    t.is(state.revision, await store.revision(ns));

    t.deepEqual(state.flags.map((f) => f.key), ['zeta', 'alpha', 'mid']);
    for (const flag of state.flags) t.deepEqual(flag, await store.flags.get(ns, flag.key));
    t.is(state.flags[0]?.defaultVariant?.key, 'blue');

    t.deepEqual(state.segments.map((s) => s.key), ['s1', 's2', 'empty']);
    t.deepEqual(state.segments, (await store.segments.list(ns, ALL)).items);
    t.deepEqual(state.segments[0]?.constraints.map((c) => c.property), ['plan', 'age']);

    // Rules by flag key, then rank; the listed rule (wire form) plus its keys in request order.
    const expectedRules = [
      ...(await store.rules.list(ns, 'mid', ALL)).items,
      ...(await store.rules.list(ns, 'zeta', ALL)).items,
    ].map((r) => ({ ...r, segmentKeysInOrder: keysOf(r) }));
    t.deepEqual(state.rules, expectedRules);
    t.deepEqual(state.rules.map((r) => [r.flagKey, r.rank, r.segmentKeysInOrder]), [
      ['mid', 1, ['s1']],
      ['zeta', 1, ['s1']],
      ['zeta', 2, ['s2', 's1']],
    ]);
    t.deepEqual(state.rules[2]?.distributions.map((d) => d.rollout), [70, 30]);

    const expectedRollouts = (await store.rollouts.list(ns, 'alpha', ALL)).items.map((r) => ({
      ...r,
      segmentKeysInOrder: rolloutKeysOf(r),
    }));
    t.deepEqual(state.rollouts, expectedRollouts);
    t.deepEqual(state.rollouts.map((r) => [r.type, r.segmentKeysInOrder]), [
      ['SEGMENT_ROLLOUT_TYPE', ['s2', 's1']],
      ['THRESHOLD_ROLLOUT_TYPE', []],
    ]);
  });

  test(`${dialect}: an empty namespace reads as empty lists; a missing one as undefined`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const state = await store.readNamespaceState(ns);
    t.like(state, { revision: 1, flags: [], rules: [], rollouts: [], segments: [] });
    t.is(await store.readNamespaceState('no-such-namespace'), undefined);
    await store.namespaces.delete(ns, true);
    t.is(await store.readNamespaceState(ns), undefined);
  });

  test(`${dialect}: the revision read always agrees with the rows read, while writes commit alongside`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const base = await store.revision(ns);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; i < 30; i++) await createFlag(store, ns, `f${i}`);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const state = await store.readNamespaceState(ns);
      // One flag per write: a revision that ran ahead of (or behind) its rows would show here.
      t.is(state?.flags.length, (state?.revision ?? 0) - base);
      reads += 1;
    }
    await writes;
    t.true(reads > 0);
    t.is((await store.readNamespaceState(ns))?.flags.length, 30);
  });

  test(`${dialect}: every namespace is listed with its current revision`, async (t) => {
    const { store } = h();
    const a = await h().namespace();
    const b = await h().namespace();
    await createFlag(store, b, 'f');
    const gone = await h().namespace();
    await store.namespaces.delete(gone, true);
    const listed = await store.listNamespaceRevisions();
    t.deepEqual(listed.find((n) => n.key === 'default'), { key: 'default', revision: await store.revision('default') });
    t.deepEqual(listed.find((n) => n.key === a), { key: a, revision: 1 });
    t.deepEqual(listed.find((n) => n.key === b), { key: b, revision: 2 });
    t.is(listed.find((n) => n.key === gone), undefined);
    t.true(listed.findIndex((n) => n.key === a) < listed.findIndex((n) => n.key === b));
  });
}

test('sqlite: a namespace of 10,000 flags reads whole, each flag with its own rules and rollouts', async (t) => {
  const db = await createTestDatabase('sqlite');
  const store = await openStore({ url: db.url });
  const { client, connection } = parseDatabaseUrl(db.url);
  const raw = knexFactory({ client, connection, useNullAsDefault: true });
  try {
    await store.migrate();
    const rows = bulkNamespace('big', 10_000);
    await raw.transaction(async (trx) => {
      await trx('namespaces').insert({ key: 'big', name: 'big', description: '', protected: false, revision: 7, state_modified_at: STAMP, created_at: STAMP, updated_at: STAMP });
      for (const [table, list] of Object.entries(rows)) await trx.batchInsert(table, list as object[], 500);
      await trx('flags').where({ type: 'VARIANT_FLAG_TYPE' }).update({ default_variant_id: trx.raw("?? || '-b'", ['key']) });
    });

    const started = performance.now();
    const state = await store.readNamespaceState('big');
    t.log(`read 10,000 flags in ${Math.round(performance.now() - started)} ms`);
    if (state === undefined) return t.fail('state missing');
    t.is(state.revision, 7);
    t.is(state.flags.length, 10_000);
    t.deepEqual(state.flags.slice(0, 3).map((f) => f.key), ['f00000', 'f00001', 'f00002']);
    t.is(state.flags[9_998]?.variants.length, 2);
    t.is(state.flags[9_998]?.defaultVariant?.key, 'b');
    t.is(state.rules.length, 5_000);
    t.is(state.rollouts.length, 10_000);
    t.is(state.segments.length, 10);
    t.true(state.segments.every((s) => s.constraints.length === 2));
    t.true(state.rules.every((r) => r.distributions.length === 2 && r.segmentKeysInOrder.length === 2));
    // Each rule's parts are its own: the distributions point at variants of the rule's flag.
    const variantFlag = new Map(state.flags.flatMap((f) => f.variants.map((v) => [v.id, f.key] as const)));
    t.true(state.rules.every((r) => r.distributions.every((d) => variantFlag.get(d.variantId) === r.flagKey)));
    t.true(state.rollouts.every((r) => (r.type === 'THRESHOLD_ROLLOUT_TYPE' ? r.threshold?.percentage === 50 : r.segmentKeysInOrder.length === 1)));
  } finally {
    await raw.destroy();
    await store.close();
    await db.drop();
  }
});

const STAMP = '2030-01-01T00:00:00.000Z';

/** Rows for a namespace of `n` flags: even ones variant flags with a rule, odd ones boolean flags with two rollouts. */
function bulkNamespace(ns: string, n: number): Record<string, object[]> {
  const stamp = { created_at: STAMP, updated_at: STAMP };
  const out: Record<string, object[]> = {
    segments: [], constraints: [], flags: [], variants: [], rules: [], rule_segments: [], distributions: [],
    rollouts: [], rollout_thresholds: [], rollout_segments: [], rollout_segment_references: [],
  };
  const push = (table: string, row: object) => out[table]?.push(row);
  for (let s = 0; s < 10; s++) {
    push('segments', { namespace_key: ns, key: `s${s}`, name: '', description: '', match_type: 'ALL_MATCH_TYPE', ...stamp });
    for (const c of [0, 1]) {
      push('constraints', { id: `c${s}-${c}`, namespace_key: ns, segment_key: `s${s}`, type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v', description: '', ...stamp });
    }
  }
  for (let i = 0; i < n; i++) {
    const key = `f${String(i).padStart(5, '0')}`;
    const isVariant = i % 2 === 0;
    push('flags', { namespace_key: ns, key, name: key, description: '', enabled: true, type: isVariant ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE', default_variant_id: null, metadata: null, ...stamp });
    if (isVariant) {
      for (const v of ['a', 'b']) push('variants', { id: `${key}-${v}`, namespace_key: ns, flag_key: key, key: v, name: '', description: '', attachment: null, ...stamp });
      push('rules', { id: `${key}-r`, namespace_key: ns, flag_key: key, rank: 1, segment_operator: 'AND_SEGMENT_OPERATOR', ...stamp });
      for (const [position, s] of [(i + 1) % 10, i % 10].entries()) push('rule_segments', { rule_id: `${key}-r`, namespace_key: ns, segment_key: `s${s}`, position });
      for (const v of ['a', 'b']) push('distributions', { id: `${key}-d${v}`, rule_id: `${key}-r`, variant_id: `${key}-${v}`, rollout: 50, ...stamp });
    } else {
      push('rollouts', { id: `${key}-o1`, namespace_key: ns, flag_key: key, type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, description: '', ...stamp });
      push('rollout_segments', { rollout_id: `${key}-o1`, segment_operator: 'OR_SEGMENT_OPERATOR', value: true });
      push('rollout_segment_references', { rollout_id: `${key}-o1`, namespace_key: ns, segment_key: `s${i % 10}`, position: 0 });
      push('rollouts', { id: `${key}-o2`, namespace_key: ns, flag_key: key, type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, description: '', ...stamp });
      push('rollout_thresholds', { rollout_id: `${key}-o2`, percentage: 50, value: true });
    }
  }
  return out;
}
