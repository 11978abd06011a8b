import test from 'ava';
import type { Page, PageRequest } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, ruleRequest, thresholdRollout } from './helpers/fixtures.js';
import { useStore } from './helpers/store-harness.js';

type Lister = (page: PageRequest) => Promise<Page<{ key?: string; id?: string }>>;
const idOf = (item: { key?: string; id?: string }): string => item.key ?? item.id ?? '';

/** Walks every page shape over a collection of five items in `expected` order. */
async function checkPaging(t: import('ava').ExecutionContext, list: Lister, expected: string[]): Promise<void> {
  t.is(expected.length, 5);
  const everything = await list({ limit: 0, offset: 0 });
  t.deepEqual(everything.items.map(idOf), expected);
  t.is(everything.totalCount, 5);
  t.is(everything.nextOffset, undefined);

  const first = await list({ limit: 2, offset: 0 });
  t.deepEqual(first.items.map(idOf), expected.slice(0, 2));
  t.is(first.nextOffset, 2);
  t.is(first.totalCount, 5);
  const second = await list({ limit: 2, offset: 2 });
  t.deepEqual(second.items.map(idOf), expected.slice(2, 4));
  t.is(second.nextOffset, 4);
  const last = await list({ limit: 2, offset: 4 });
  t.deepEqual(last.items.map(idOf), expected.slice(4));
  t.is(last.nextOffset, undefined);
  t.is(last.totalCount, 5);

  const exact = await list({ limit: 5, offset: 0 });
  t.is(exact.items.length, 5);
  t.is(exact.nextOffset, undefined);
  const beyond = await list({ limit: 2, offset: 9 });
  t.deepEqual(beyond.items, []);
  t.is(beyond.nextOffset, undefined);
  t.is(beyond.totalCount, 5);
}

const KEYS = ['k1', 'k2', 'k3', 'k4', 'k5'];

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  // Serial tests run before the concurrent ones, so no other test has created a namespace yet.
  test.serial(`${dialect}: namespaces page by creation`, async (t) => {
    const { store } = h();
    for (const key of KEYS.slice(0, 4)) await store.namespaces.create({ key, name: key, description: '' });
    await checkPaging(t, (p) => store.namespaces.list(p), ['default', ...KEYS.slice(0, 4)]);
  });

  test(`${dialect}: flags page by creation`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    for (const key of ['z', 'y', 'x', 'w', 'v']) await createFlag(store, ns, key);
    await checkPaging(t, (p) => store.flags.list(ns, p), ['z', 'y', 'x', 'w', 'v']);
  });

  test(`${dialect}: segments page by creation`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    for (const key of KEYS) await createSegment(store, ns, key);
    await checkPaging(t, (p) => store.segments.list(ns, p), KEYS);
  });

  test(`${dialect}: rules and rollouts page by rank`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'v');
    await createFlag(store, ns, 'b', 'BOOLEAN_FLAG_TYPE');
    await createSegment(store, ns, 's');
    const rules = [];
    const rollouts = [];
    for (const rank of [5, 3, 1, 4, 2]) {
      rules.push({ rank, id: (await store.rules.create(ruleRequest(ns, 'v', ['s'], rank))).id });
      rollouts.push({ rank, id: (await store.rollouts.create(thresholdRollout(ns, 'b', rank))).id });
    }
    const byRank = (xs: Array<{ rank: number; id: string }>) => [...xs].sort((a, b) => a.rank - b.rank).map((x) => x.id);
    await checkPaging(t, (p) => store.rules.list(ns, 'v', p), byRank(rules));
    await checkPaging(t, (p) => store.rollouts.list(ns, 'b', p), byRank(rollouts));
  });
}
