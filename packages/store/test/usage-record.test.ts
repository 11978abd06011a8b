/** Storing evaluation counts: once per batch id, concurrently from several control planes, in bulk, and what cannot be stored. */
import test from 'ava';
import { AppError, Code } from '@ensign/core';
import { openStore, type SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import { batchAt, MINUTE, served, T0 } from './helpers/usage-batches.js';
import { rejects, useStore } from './helpers/store-harness.js';

/** Everything counted for a flag at T0's hour, by the minute series and the usage of that hour. */
async function totals(store: SqlStore, ns: string, flagKey: string): Promise<{ minutes: number; hour: number }> {
  const series = await store.usage.series(ns, flagKey, new Date(T0), new Date(T0 + 59 * MINUTE), 60);
  const detail = await store.usage.flagUsage(ns, flagKey, new Date(T0), new Date(T0 + 59 * MINUTE));
  return { minutes: series.values.reduce((a, b) => a + b, 0), hour: detail.evaluations };
}

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a batch stored twice counts once`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const batch = batchAt(T0 + 5 * MINUTE + 1234, [served(ns, 'color', 'red', 3), served(ns, 'color', 'blue', 2)]);
    await store.usage.record(batch);
    await store.usage.record(batch);
    await store.usage.record({ ...batch, counts: [served(ns, 'color', 'red', 100)] });
    t.deepEqual(await totals(store, ns, 'color'), { minutes: 5, hour: 5 });
    const detail = await store.usage.flagUsage(ns, 'color', new Date(T0), new Date(T0 + 10 * MINUTE));
    t.deepEqual(detail.values, [{ value: 'red', count: 3 }, { value: 'blue', count: 2 }]);
    t.is(detail.lastEvaluatedAt, new Date(T0 + 5 * MINUTE + 1234).toISOString());
  });

  test(`${dialect}: batches stored at once add up, and the same batch sent at once counts once`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const batches = Array.from({ length: 12 }, (_, i) => batchAt(T0 + i * 1000, [served(ns, 'color', 'red', 1), served(ns, 'color', i % 2 === 0 ? 'red' : 'blue', 1)]));
    const twice = batchAt(T0 + 30_000, [served(ns, 'color', 'blue', 10)]);
    await Promise.all([...batches, twice, twice].map((b) => store.usage.record(b)));
    t.deepEqual(await totals(store, ns, 'color'), { minutes: 34, hour: 34 });
  });

  test(`${dialect}: the counts of one series sent twice in a batch are summed; thousands of counts are stored in bulk`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const counts = Array.from({ length: 1200 }, (_, i) => served(ns, `flag-${i % 600}`, `v${i % 3}`, 1));
    await store.usage.record(batchAt(T0, [...counts, served(ns, 'flag-0', 'v0', 4)]));
    const usage = await store.usage.usage(ns, new Date(T0), new Date(T0 + MINUTE));
    t.is(usage.length, 600);
    t.is(usage.reduce((sum, f) => sum + f.evaluations, 0), 1204);
    t.deepEqual(usage.find((f) => f.flagKey === 'flag-0')?.values, [{ value: 'v0', count: 6 }]);
  });

  test(`${dialect}: counts that cannot name a flag are dropped; a batch that cannot be stored is refused`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await store.usage.record(
      batchAt(T0, [served(ns, 'x'.repeat(256), 'v', 1), served(ns, 'color', 'v', 0), served(ns, 'color', 'v', 1.5), served(ns, '', 'v', 1), served(ns, 'color', 'v', 2), served('', 'color', 'v', 7)]),
    );
    t.deepEqual(await totals(store, ns, 'color'), { minutes: 2, hour: 2 });
    t.is((await store.usage.flagUsage('default', 'color', new Date(T0), new Date(T0))).evaluations, 7, 'an empty namespace key is the default namespace');
    await rejects(t, store.usage.record(batchAt(T0, [], '')), Code.InvalidArgument, 'usage batch id must be 1 to 255 characters');
    await rejects(t, store.usage.record(batchAt(T0, [], 'i'.repeat(256))), Code.InvalidArgument, 'usage batch id must be 1 to 255 characters');
    await rejects(t, store.usage.record(batchAt(Number.NaN, [], 'no-time')), Code.InvalidArgument, 'usage batch "no-time" has no valid time');
  });

  test(`${dialect}: the last evaluation moves forward only`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await store.usage.record(batchAt(T0 + 2 * MINUTE, [served(ns, 'color', 'red', 1)]));
    await store.usage.record(batchAt(T0 + MINUTE, [served(ns, 'color', 'red', 1)]));
    const [color] = await store.usage.usage(ns, new Date(T0), new Date(T0 + 5 * MINUTE));
    t.is(color?.lastEvaluatedAt, new Date(T0 + 2 * MINUTE).toISOString());
    t.is(color?.evaluations, 2);
  });

  // Two stores on one database are two control planes. better-sqlite3 waits for another
  // connection's lock synchronously, so in one process SQLite can only take them in turn.
  if (dialect !== 'sqlite') {
    test(`${dialect}: two control planes storing different batches at once both count`, async (t) => {
      const db = await createTestDatabase(dialect);
      const a = await openStore({ url: db.url });
      const b = await openStore({ url: db.url });
      try {
        await a.migrate();
        const ns = 'default';
        const batches = Array.from({ length: 40 }, (_, i) => batchAt(T0 + i * 100, [served(ns, 'color', 'red', 1), served(ns, 'color', 'blue', 2), served(ns, 'size', 'big', 1)]));
        await Promise.all(batches.flatMap((batch, i) => [(i % 2 === 0 ? a : b).usage.record(batch), (i % 2 === 0 ? b : a).usage.record(batch)]));
        t.deepEqual(await totals(a, ns, 'color'), { minutes: 120, hour: 120 });
        t.deepEqual(await totals(b, ns, 'size'), { minutes: 40, hour: 40 });
      } finally {
        await a.close();
        await b.close();
        await db.drop();
      }
    });
  }

  test(`${dialect}: a store whose database is gone answers 503 to every use of the counts`, async (t) => {
    const db = await createTestDatabase(dialect);
    const store = await openStore({ url: db.url });
    try {
      await store.migrate();
      await store.close();
      for (const [what, use] of [
        ['record', store.usage.record(batchAt(T0, [served('default', 'color', 'red', 1)]))],
        ['series', store.usage.series('default', 'color', new Date(T0), new Date(T0 + MINUTE), 1)],
        ['usage', store.usage.usage('default', new Date(T0), new Date(T0 + MINUTE))],
        ['flag usage', store.usage.flagUsage('default', 'color', new Date(T0), new Date(T0 + MINUTE))],
        ['prune', store.usage.prune(new Date(T0), new Date(T0))],
      ] as const) {
        const err = await t.throwsAsync(use, { instanceOf: AppError, message: 'database unavailable' }, what);
        t.is(err?.code, Code.Unavailable, what);
      }
    } finally {
      await db.drop();
    }
  });
}
