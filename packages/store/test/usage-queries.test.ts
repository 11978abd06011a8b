/** Reading evaluation counts: Flipt's series, a namespace's usage over a window, one flag's usage, pruning. */
import test from 'ava';
import { TEST_DIALECTS } from '@ensign/testkit';
import { batchAt, HOUR, MINUTE, rfc, served, T0 } from './helpers/usage-batches.js';
import { createFlag } from './helpers/fixtures.js';
import { useStore } from './helpers/store-harness.js';

const at = (ms: number): Date => new Date(ms);

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: the series has one zero-filled bucket per step from from's bucket to to's, both included`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await store.usage.record(batchAt(T0 + 2 * MINUTE + 5000, [served(ns, 'color', 'red', 3), served(ns, 'color', 'blue', 1, 'DEFAULT_EVALUATION_REASON')]));
    await store.usage.record(batchAt(T0 + 7 * MINUTE, [served(ns, 'color', 'red', 2), served(ns, 'other', 'red', 50)]));
    await store.usage.record(batchAt(T0 + 31 * MINUTE, [served(ns, 'color', 'red', 1)]));

    t.deepEqual(await store.usage.series(ns, 'color', at(T0 + 1 * MINUTE + 30_000), at(T0 + 3 * MINUTE), 1), {
      timestamps: [rfc(T0 + MINUTE), rfc(T0 + 2 * MINUTE), rfc(T0 + 3 * MINUTE)],
      values: [0, 4, 0],
    });
    t.deepEqual(await store.usage.series(ns, 'color', at(T0 + 4 * MINUTE), at(T0 + 12 * MINUTE), 5), {
      timestamps: [rfc(T0), rfc(T0 + 5 * MINUTE), rfc(T0 + 10 * MINUTE)],
      values: [4, 2, 0],
    });
    const half = await store.usage.series(ns, 'color', at(T0 - 61 * MINUTE), at(T0 + 59 * MINUTE), 30);
    t.deepEqual(half.timestamps, [-90, -60, -30, 0, 30].map((m) => rfc(T0 + m * MINUTE)));
    t.deepEqual(half.values, [0, 0, 0, 6, 1]);
    t.deepEqual(await store.usage.series(ns, 'never', at(T0), at(T0 + 2 * MINUTE), 1), { timestamps: [0, 1, 2].map((m) => rfc(T0 + m * MINUTE)), values: [0, 0, 0] });
    t.deepEqual(await store.usage.series(ns, 'color', at(T0 + MINUTE), at(T0), 1), { timestamps: [], values: [] }, 'to before from');
  });

  test(`${dialect}: a namespace's usage counts each flag's evaluations from since's minute to now's, per value`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const since = T0 + 30 * MINUTE;
    const now = T0 + 3 * HOUR + 10 * MINUTE;
    await store.usage.record(batchAt(T0 + 15 * MINUTE, [served(ns, 'color', 'red', 1000), served(ns, 'gone', 'x', 1)]));
    await store.usage.record(batchAt(since + 20_000, [served(ns, 'color', 'red', 1)]));
    await store.usage.record(batchAt(T0 + 45 * MINUTE, [served(ns, 'color', 'blue', 2)]));
    await store.usage.record(batchAt(T0 + 2 * HOUR, [served(ns, 'color', 'red', 4), served(ns, 'size', 'big', 5)]));
    await store.usage.record(batchAt(now, [served(ns, 'color', 'red', 8)]));
    await store.usage.record(batchAt(now + MINUTE, [served(ns, 'color', 'red', 10_000)]));
    const other = await h().namespace();
    await store.usage.record(batchAt(T0 + 2 * HOUR, [served(other, 'color', 'red', 77)]));

    t.deepEqual(await store.usage.usage(ns, at(since + 59_000), at(now + 59_000)), [
      { flagKey: 'color', evaluations: 15, values: [{ value: 'red', count: 13 }, { value: 'blue', count: 2 }], lastEvaluatedAt: new Date(now + MINUTE).toISOString() },
      { flagKey: 'gone', evaluations: 0, values: [], lastEvaluatedAt: new Date(T0 + 15 * MINUTE).toISOString() },
      { flagKey: 'size', evaluations: 5, values: [{ value: 'big', count: 5 }], lastEvaluatedAt: new Date(T0 + 2 * HOUR).toISOString() },
    ]);
    t.deepEqual(await store.usage.usage('nothing-here', at(T0), at(now)), []);
  });

  test(`${dialect}: one flag's usage: evaluations per value and per reason, most first, and its last evaluation`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await store.usage.record(batchAt(T0 + 5 * MINUTE, [served(ns, 'color', 'red', 3), served(ns, 'color', '', 4, 'DEFAULT_EVALUATION_REASON'), served(ns, 'color', 'blue', 3)]));
    await store.usage.record(batchAt(T0 + 26 * HOUR, [served(ns, 'color', 'blue', 1, 'DEFAULT_EVALUATION_REASON')]));
    t.deepEqual(await store.usage.flagUsage(ns, 'color', at(T0), at(T0 + 2 * HOUR)), {
      evaluations: 10,
      values: [{ value: '', count: 4 }, { value: 'blue', count: 3 }, { value: 'red', count: 3 }],
      reasons: [{ reason: 'MATCH_EVALUATION_REASON', count: 6 }, { reason: 'DEFAULT_EVALUATION_REASON', count: 4 }],
      lastEvaluatedAt: new Date(T0 + 26 * HOUR).toISOString(),
    });
    t.deepEqual(await store.usage.flagUsage(ns, 'never', at(T0), at(T0 + HOUR)), { evaluations: 0, values: [], reasons: [], lastEvaluatedAt: undefined });
  });

  // Serial (ava runs serial tests first): pruning by age reaches every namespace's rows.
  test.serial(`${dialect}: pruning deletes old minutes, then old hours, batch ids and the last evaluations of flags that are gone`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'kept');
    const old = batchAt(T0 - 10 * 24 * HOUR, [served(ns, 'kept', 'on', 1), served(ns, 'gone', 'on', 1)]);
    await store.usage.record(old);
    await store.usage.record(batchAt(T0, [served(ns, 'kept', 'on', 2)]));
    const detail = () => store.usage.flagUsage(ns, 'kept', at(old.at - 30 * MINUTE), at(T0 + MINUTE));
    const minutes = async () => (await store.usage.series(ns, 'kept', at(old.at), at(old.at), 1)).values[0];

    const first = await store.usage.prune(at(T0 - 7 * 24 * HOUR), at(T0 - 90 * 24 * HOUR));
    t.true(first.minutes >= 2, `minutes ${first.minutes}`);
    t.is(await minutes(), 0, 'the old minute is gone');
    t.is((await detail()).evaluations, 3, 'its hour is kept');

    // The batches were received at the store's clock, which runs ahead of the real time.
    const later = new Date(Date.now() + 365 * 24 * HOUR);
    const second = await store.usage.prune(at(T0 - 7 * 24 * HOUR), later);
    t.true(second.hours >= 3 && second.batches >= 2 && second.lasts >= 1, JSON.stringify(second));
    t.is((await detail()).evaluations, 2, 'only the recent minute is left');
    const lasts = await store.usage.usage(ns, at(T0), at(T0 + MINUTE));
    t.deepEqual(lasts.map((f) => [f.flagKey, f.lastEvaluatedAt]), [['kept', new Date(T0).toISOString()]], 'an existing flag keeps its last evaluation');
    await store.usage.record(old);
    t.is((await store.usage.flagUsage(ns, 'gone', at(old.at), at(old.at))).evaluations, 1, 'a batch id pruned is forgotten');
  });
}
