/**
 * The write path: every change applied to the held version from the touched flags alone ends where
 * reading the whole namespace ends, document, checksum and compiled answers alike.
 */
import test from 'ava';
import { evaluateBoolean, evaluateVariant } from '@ensign/engine';
import { jsonClient, randomEdits } from '@ensign/testkit';
import { buildVersion } from '../src/index.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;

test.before(async () => {
  h = await startHarness({ snapshots: true });
});
test.after.always(async () => {
  await h?.close();
});

/** The held version against one built from the database now. */
async function assertMatchesDatabase(t: import('ava').ExecutionContext, ns: string): Promise<void> {
  const state = await h.store.readNamespaceState(ns);
  if (state === undefined) throw new Error(`namespace ${ns} is gone`);
  const whole = buildVersion(state, { hash: 'murmur3' });
  const held = h.source.peek(ns);
  t.is(held?.revision, whole.revision);
  t.is(held?.snapshot.checksum, whole.snapshot.checksum);
  t.deepEqual(held?.snapshot.document, whole.snapshot.document);
  for (const flag of whole.snapshot.document.flags) {
    for (const entityId of ['u1', 'u2', 'u3']) {
      const input = { flagKey: flag.key, entityId, context: { plan: 'pro', country: 'de', tier: 'free', seats: '20' } };
      const evaluate = flag.type === 'VARIANT_FLAG_TYPE' ? evaluateVariant : evaluateBoolean;
      t.deepEqual(evaluate(held!.compiled, input, { now: () => 0 }), evaluate(whole.compiled, input, { now: () => 0 }), `${flag.key}/${entityId}`);
    }
  }
}

test.serial('random edit sequences leave the held version equal to the namespace read whole', async (t) => {
  const api = jsonClient(h.base);
  for (const seed of [1, 2, 3]) {
    const ns = `random-${seed}`;
    t.is((await api.post('/api/v1/namespaces', { key: ns, name: ns })).status, 200);
    const result = await randomEdits(api, ns, 250, seed, async (i) => {
      if (i % 50 === 49) await assertMatchesDatabase(t, ns);
    });
    t.true(result.applied > 150, `seed ${seed}: ${result.applied} edits applied`);
    await assertMatchesDatabase(t, ns);
  }
  t.is(h.pipeline?.counts.rebuilt, 1, 'only the start-up load read a namespace whole');
  t.true((h.pipeline?.counts.applied ?? 0) > 450);
});

test.serial('a segment edit reaches every flag that uses it', async (t) => {
  const api = jsonClient(h.base);
  const base = '/api/v1/namespaces/default';
  t.is((await api.post(`${base}/segments`, { key: 'shared', name: 'shared' })).status, 200);
  for (const key of ['one', 'two']) {
    t.is((await api.post(`${base}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: false })).status, 200);
    t.is((await api.post(`${base}/flags/${key}/rollouts`, { rank: 1, segment: { segmentKey: 'shared', value: true } })).status, 200);
  }
  const input = (flagKey: string) => ({ flagKey, entityId: 'e', context: { plan: 'free' } });
  t.like(evaluateBoolean(h.source.peek('default')!.compiled, input('one'), { now: () => 0 }), { enabled: true });
  t.is((await api.post(`${base}/segments/shared/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' })).status, 200);
  for (const key of ['one', 'two']) t.like(evaluateBoolean(h.source.peek('default')!.compiled, input(key), { now: () => 0 }), { enabled: false }, key);
  await assertMatchesDatabase(t, 'default');
});
