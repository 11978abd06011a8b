import test from 'ava';
import type { ExecutionContext } from 'ava';
import knexFactory from 'knex';
import { openStore, parseDatabaseUrl } from '@ensign/store';
import type { CommittedChange, NamespaceState, SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { changesOf, useStore } from './helpers/store-harness.js';
import type { Harness } from './helpers/store-harness.js';

/** A small seeded generator (mulberry32), so a failing sequence can be replayed from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A write the sequence can make, and the flags it should report (`segment:` a segment's users). */
interface Step {
  name: string;
  run: () => Promise<unknown>;
  touches: string[] | { segment: string } | 'none';
}

/** Picks the next write from the namespace's current state; undefined when the picked kind has no target yet. */
function nextStep(store: SqlStore, ns: string, state: NamespaceState, random: () => number, n: number): Step | undefined {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const shuffle = <T>(items: readonly T[]): T[] => [...items].sort(() => random() - 0.5);
  const variantFlags = state.flags.filter((f) => f.type === 'VARIANT_FLAG_TYPE');
  const booleanFlags = state.flags.filter((f) => f.type === 'BOOLEAN_FLAG_TYPE');
  const segmentKeys = () => shuffle(state.segments.map((s) => s.key)).slice(0, 1 + Math.floor(random() * 2));
  const constraint = { type: 'STRING_COMPARISON_TYPE' as const, property: 'p', operator: 'eq', description: '' };
  const flag = pick(state.flags);
  const variantFlag = pick(variantFlags);
  const booleanFlag = pick(booleanFlags);
  const segment = pick(state.segments);
  const rule = pick(state.rules);
  const rollout = pick(state.rollouts);
  const ruleFlag = rule === undefined ? undefined : state.flags.find((f) => f.key === rule.flagKey);
  const distribution = pick(state.rules.flatMap((r) => r.distributions.map((d) => ({ rule: r, d }))));

  const steps: Array<() => Step | undefined> = [
    () => ({
      name: 'flag create',
      run: () => store.flags.create({ namespaceKey: ns, key: `f${n}`, name: `f${n}`, description: '', enabled: true, type: random() < 0.5 ? 'VARIANT_FLAG_TYPE' : 'BOOLEAN_FLAG_TYPE', metadata: undefined }),
      touches: [`f${n}`],
    }),
    () => flag && {
      name: 'flag update',
      run: () => store.flags.update({ namespaceKey: ns, key: flag.key, name: `n${n}`, description: '', enabled: random() < 0.5, defaultVariantId: pick(flag.variants)?.id ?? '', metadata: random() < 0.5 ? undefined : { n } }),
      touches: [flag.key],
    },
    () => flag && random() < 0.3 ? { name: 'flag delete', run: () => store.flags.delete(ns, flag.key), touches: [flag.key] } : undefined,
    () => variantFlag && {
      name: 'variant create',
      run: () => store.variants.create({ namespaceKey: ns, flagKey: variantFlag.key, key: `v${n}`, name: '', description: '', attachment: random() < 0.5 ? '' : `{"n":${n}}` }),
      touches: [variantFlag.key],
    },
    () => {
      const v = pick(variantFlags.flatMap((f) => f.variants));
      return v && { name: 'variant update', run: () => store.variants.update({ namespaceKey: ns, flagKey: v.flagKey, id: v.id, key: v.key, name: `n${n}`, description: '', attachment: '' }), touches: [v.flagKey] };
    },
    () => {
      const v = pick(variantFlags.flatMap((f) => f.variants));
      return v && { name: 'variant delete', run: () => store.variants.delete(ns, v.flagKey, v.id), touches: [v.flagKey] };
    },
    () => ({ name: 'segment create', run: () => store.segments.create({ namespaceKey: ns, key: `s${n}`, name: '', description: '', matchType: 'ALL_MATCH_TYPE' }), touches: 'none' }),
    () => segment && {
      name: 'segment update',
      run: () => store.segments.update({ namespaceKey: ns, key: segment.key, name: `n${n}`, description: '', matchType: random() < 0.5 ? 'ANY_MATCH_TYPE' : 'ALL_MATCH_TYPE' }),
      touches: { segment: segment.key },
    },
    () => segment && { name: 'segment delete', run: () => store.segments.delete(ns, segment.key), touches: 'none' },
    () => segment && { name: 'constraint create', run: () => store.constraints.create({ ...constraint, namespaceKey: ns, segmentKey: segment.key, value: `${n}` }), touches: { segment: segment.key } },
    () => {
      const c = pick(state.segments.flatMap((s) => s.constraints));
      return c && { name: 'constraint update', run: () => store.constraints.update({ ...constraint, namespaceKey: ns, segmentKey: c.segmentKey, id: c.id, value: `${n}` }), touches: { segment: c.segmentKey } };
    },
    () => {
      const c = pick(state.segments.flatMap((s) => s.constraints));
      return c && { name: 'constraint delete', run: () => store.constraints.delete(ns, c.segmentKey, c.id), touches: { segment: c.segmentKey } };
    },
    () => variantFlag && state.segments.length > 0 ? {
      name: 'rule create',
      run: () => store.rules.create({ namespaceKey: ns, flagKey: variantFlag.key, segmentKey: '', segmentKeys: segmentKeys(), segmentOperator: 'AND_SEGMENT_OPERATOR', rank: state.rules.filter((r) => r.flagKey === variantFlag.key).length + 1 }),
      touches: [variantFlag.key],
    } : undefined,
    () => rule && {
      name: 'rule update',
      run: () => store.rules.update({ namespaceKey: ns, flagKey: rule.flagKey, id: rule.id, segmentKey: '', segmentKeys: segmentKeys(), segmentOperator: 'OR_SEGMENT_OPERATOR' }),
      touches: [rule.flagKey],
    },
    () => rule && {
      name: 'rules order',
      run: () => store.rules.order({ namespaceKey: ns, flagKey: rule.flagKey, ids: shuffle(state.rules.filter((r) => r.flagKey === rule.flagKey).map((r) => r.id)) }),
      touches: [rule.flagKey],
    },
    () => rule && { name: 'rule delete', run: () => store.rules.delete(ns, rule.flagKey, rule.id), touches: [rule.flagKey] },
    () => {
      const variant = pick(ruleFlag?.variants ?? []);
      return rule && variant && {
        name: 'distribution create',
        run: () => store.distributions.create({ namespaceKey: ns, flagKey: rule.flagKey, ruleId: rule.id, variantId: variant.id, rollout: Math.floor(random() * 50) }),
        touches: [rule.flagKey],
      };
    },
    () => distribution && {
      name: 'distribution update',
      run: () => store.distributions.update({ namespaceKey: ns, flagKey: distribution.rule.flagKey, ruleId: distribution.rule.id, id: distribution.d.id, variantId: distribution.d.variantId, rollout: Math.floor(random() * 50) }),
      touches: [distribution.rule.flagKey],
    },
    () => distribution && {
      name: 'distribution delete',
      run: () => store.distributions.delete({ namespaceKey: ns, flagKey: distribution.rule.flagKey, ruleId: distribution.rule.id, id: distribution.d.id, variantId: distribution.d.variantId }),
      touches: [distribution.rule.flagKey],
    },
    () => {
      if (booleanFlag === undefined) return undefined;
      const rank = state.rollouts.filter((r) => r.flagKey === booleanFlag.key).length + 1;
      const bySegment = state.segments.length > 0 && random() < 0.6;
      return {
        name: 'rollout create',
        run: () => store.rollouts.create({
          namespaceKey: ns, flagKey: booleanFlag.key, rank, description: '',
          segment: bySegment ? { segmentKey: '', segmentKeys: segmentKeys(), segmentOperator: 'AND_SEGMENT_OPERATOR', value: random() < 0.5 } : undefined,
          threshold: bySegment ? undefined : { percentage: Math.floor(random() * 100), value: true },
        }),
        touches: [booleanFlag.key],
      };
    },
    () => rollout && {
      name: 'rollout update',
      run: () => store.rollouts.update({
        namespaceKey: ns, flagKey: rollout.flagKey, id: rollout.id, description: `d${n}`,
        segment: rollout.segment === undefined ? undefined : { segmentKey: '', segmentKeys: segmentKeys(), segmentOperator: 'OR_SEGMENT_OPERATOR', value: random() < 0.5 },
        threshold: rollout.threshold === undefined ? undefined : { percentage: Math.floor(random() * 100), value: false },
      }),
      touches: [rollout.flagKey],
    },
    () => rollout && {
      name: 'rollouts order',
      run: () => store.rollouts.order({ namespaceKey: ns, flagKey: rollout.flagKey, ids: shuffle(state.rollouts.filter((r) => r.flagKey === rollout.flagKey).map((r) => r.id)) }),
      touches: [rollout.flagKey],
    },
    () => rollout && { name: 'rollout delete', run: () => store.rollouts.delete(ns, rollout.flagKey, rollout.id), touches: [rollout.flagKey] },
  ];
  return pick(steps)?.();
}

/** The flags using a segment, from the namespace's state. */
const usersOf = (state: NamespaceState, segmentKey: string): string[] =>
  [...new Set([...state.rules, ...state.rollouts].filter((r) => r.segmentKeysInOrder.includes(segmentKey)).map((r) => r.flagKey))];

/** How a step went: it failed, changed nothing evaluation sees, or changed flags. */
type Result = 'failed' | 'none' | 'flags';

/** Runs one step and checks its change against the namespace's state read right after it. */
async function check(t: ExecutionContext, h: Harness, ns: string, step: Step, label: string): Promise<{ state: NamespaceState; result: Result }> {
  const count = changesOf(h, ns).length;
  const revision = await h.store.revision(ns);
  const failed = await step.run().then(() => false, () => true);
  const changes = changesOf(h, ns);
  const state = await h.store.readNamespaceState(ns);
  if (state === undefined) throw new Error(`${label}: namespace gone`);
  if (failed) {
    t.is(changes.length, count, `${label}: a failed write announces nothing`);
    t.is(state.revision, revision, `${label}: a failed write keeps the revision`);
    return { state, result: 'failed' };
  }
  t.is(changes.length, count + 1, `${label}: one change`);
  const change = changes.at(-1);
  if (change === undefined) return { state, result: 'failed' };
  t.is(change.record.revision, revision + 1, `${label}: revision`);
  const touched = step.touches === 'none' ? [] : Array.isArray(step.touches) ? step.touches : usersOf(state, step.touches.segment);
  if (touched.length === 0) {
    t.deepEqual(change.effect, { kind: 'none' }, `${label}: no effect`);
    return { state, result: 'none' };
  }
  await expectFlagsEffect(t, h.store, change, touched, label);
  return { state, result: 'flags' };
}

/** How many `flags` effects a sequence checks at least. */
const EFFECTS_TO_COMPARE = 80;
/** How many kinds of write a sequence runs at least. */
const KINDS_TO_RUN = 15;

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: after any sequence of writes, each effect equals the namespace's state of its flags at its revision`, async (t) => {
    const seed = Number(process.env['ENSIGN_TEST_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
    t.log(`seed ${seed}`);
    const random = seeded(seed);
    const { store } = h();
    const ns = await h().namespace();
    let state = (await store.readNamespaceState(ns)) as NamespaceState;
    const seen = new Map<string, number>();
    const results: Record<Result, number> = { failed: 0, none: 0, flags: 0 };
    // Until enough flag effects were compared and kinds of write run; the cap only stops a sequence stuck failing.
    for (let n = 0; (results.flags < EFFECTS_TO_COMPARE || seen.size < KINDS_TO_RUN) && n < 1_000; n++) {
      const step = nextStep(store, ns, state, random, n);
      if (step === undefined) continue;
      seen.set(step.name, (seen.get(step.name) ?? 0) + 1);
      const checked = await check(t, h(), ns, step, `seed ${seed} step ${n} ${step.name}`);
      state = checked.state;
      results[checked.result] += 1;
    }
    t.log([...seen].map(([name, count]) => `${name} ${count}`).join(', '));
    t.log(`effects compared ${results.flags}, none ${results.none}, failed writes ${results.failed}`);
    t.true(seen.size >= KINDS_TO_RUN, 'most kinds of write ran');
    t.true(results.flags >= EFFECTS_TO_COMPARE, 'enough flag effects were compared');
  });
}

test('sqlite: a segment used by more flags than one IN list holds reports every one of them', async (t) => {
  const db = await createTestDatabase('sqlite');
  const store = await openStore({ url: db.url });
  const { client, connection } = parseDatabaseUrl(db.url);
  const raw = knexFactory({ client, connection, useNullAsDefault: true });
  const changes: CommittedChange[] = [];
  store.onCommit((c) => {
    changes.push(c);
  });
  try {
    await store.migrate();
    const stamp = '2030-01-01T00:00:00.000Z';
    const at = { created_at: stamp, updated_at: stamp };
    const keys = Array.from({ length: 1_100 }, (_, i) => `f${String(i).padStart(4, '0')}`);
    await raw.transaction(async (trx) => {
      await trx('segments').insert([
        { namespace_key: 'default', key: 'shared', name: '', description: '', match_type: 'ALL_MATCH_TYPE', ...at },
        { namespace_key: 'default', key: 'extra', name: '', description: '', match_type: 'ALL_MATCH_TYPE', ...at },
      ]);
      const variantKeys = keys.filter((_, i) => i % 2 === 0);
      const booleanKeys = keys.filter((_, i) => i % 2 === 1);
      const flag = (key: string, type: string) => ({ namespace_key: 'default', key, name: key, description: '', enabled: true, type, default_variant_id: null, metadata: null, ...at });
      await trx.batchInsert('flags', [...variantKeys.map((k) => flag(k, 'VARIANT_FLAG_TYPE')), ...booleanKeys.map((k) => flag(k, 'BOOLEAN_FLAG_TYPE'))], 200);
      await trx.batchInsert('variants', variantKeys.map((k) => ({ id: `${k}-v`, namespace_key: 'default', flag_key: k, key: 'v', name: '', description: '', attachment: null, ...at })), 200);
      await trx.batchInsert('rules', variantKeys.map((k) => ({ id: `${k}-r`, namespace_key: 'default', flag_key: k, rank: 1, segment_operator: 'AND_SEGMENT_OPERATOR', ...at })), 200);
      await trx.batchInsert('rule_segments', variantKeys.flatMap((k) => ['shared', 'extra'].map((segment_key, position) => ({ rule_id: `${k}-r`, namespace_key: 'default', segment_key, position }))), 200);
      await trx.batchInsert('distributions', variantKeys.map((k) => ({ id: `${k}-d`, rule_id: `${k}-r`, variant_id: `${k}-v`, rollout: 100, ...at })), 200);
      await trx.batchInsert('rollouts', booleanKeys.map((k) => ({ id: `${k}-o`, namespace_key: 'default', flag_key: k, type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, description: '', ...at })), 200);
      await trx.batchInsert('rollout_segments', booleanKeys.map((k) => ({ rollout_id: `${k}-o`, segment_operator: 'OR_SEGMENT_OPERATOR', value: true })), 200);
      await trx.batchInsert('rollout_segment_references', booleanKeys.map((k) => ({ rollout_id: `${k}-o`, namespace_key: 'default', segment_key: 'shared', position: 0 })), 200);
    });

    await store.constraints.create({ namespaceKey: 'default', segmentKey: 'shared', type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v', description: '' });
    const change = changes.at(-1);
    if (change === undefined) return t.fail('no change');
    await expectFlagsEffect(t, store, change, keys, 'constraint on a shared segment');
    if (change.effect.kind !== 'flags') return;
    t.is(change.effect.state.flags.length, 1_100);
    t.is(change.effect.state.rules.length, 550);
    t.is(change.effect.state.rollouts.length, 550);
    t.deepEqual(change.effect.state.segments.map((s) => [s.key, s.constraints.length]), [['extra', 0], ['shared', 1]]);
  } finally {
    await raw.destroy();
    await store.close();
    await db.drop();
  }
});
