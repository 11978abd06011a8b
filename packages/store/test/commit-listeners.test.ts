import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { openStore } from '@ensign/store';
import type { CommittedChange, SqlStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import type { TestDatabase } from '@ensign/testkit';
import { createFlag } from './helpers/fixtures.js';
import { steppingClock } from './helpers/store-harness.js';

/** The bound these suites set, well below the 5 s default so a test of it stays quick. */
const WAIT_MS = 300;

for (const dialect of TEST_DIALECTS) {
  let db: TestDatabase | undefined;
  let opened: SqlStore | undefined;
  const store = (): SqlStore => {
    if (opened === undefined) throw new Error('store not ready');
    return opened;
  };
  let counter = 0;
  const nextKey = () => `l${++counter}`;

  test.before(async () => {
    db = await createTestDatabase(dialect);
    opened = await openStore({ url: db.url, now: steppingClock(), commitWaitMs: WAIT_MS });
    await opened.migrate();
  });
  test.after.always(async () => {
    await opened?.close();
    await db?.drop();
  });

  // Serial: the listeners hear every write to the store, and some tests time them.
  test.serial(`${dialect}: a write answers only once every listener has settled`, async (t) => {
    const events: string[] = [];
    const key = nextKey();
    const offSlow = store().onCommit(async ({ record }) => {
      await sleep(100);
      events.push(`slow ${record.key}`);
    });
    const offSync = store().onCommit(({ record }) => {
      events.push(`sync ${record.key}`);
    });
    try {
      await createFlag(store(), 'default', key);
      events.push('answered');
    } finally {
      offSlow();
      offSync();
    }
    t.deepEqual(events, [`sync ${key}`, `slow ${key}`, 'answered']);
  });

  test.serial(`${dialect}: a write waits for a listener no longer than commitWaitMs`, async (t) => {
    let release = () => {};
    const never = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heardAt: number[] = [];
    const off = store().onCommit(() => {
      heardAt.push(performance.now());
      return never;
    });
    const key = nextKey();
    try {
      const flag = await createFlag(store(), 'default', key);
      // From the commit being announced to the write answering: the wait alone, without the database's time.
      const waited = performance.now() - (heardAt[0] ?? Number.NaN);
      t.is(flag.key, key);
      t.is(heardAt.length, 1);
      // The listener never settles: that the write answered at all is the bound at work.
      t.true(waited >= WAIT_MS - 5, `answered ${waited} ms after the commit, before the wait was over`);
      t.is((await store().flags.get('default', key)).key, key);
    } finally {
      off();
      release();
    }
  });

  test.serial(`${dialect}: a listener that throws or rejects fails neither the write nor the other listeners`, async (t) => {
    const heard: string[] = [];
    const offs = [
      store().onCommit(() => {
        throw new Error('synchronous failure');
      }),
      store().onCommit(async () => {
        await sleep(10);
        throw new Error('asynchronous failure');
      }),
      store().onCommit(() => Promise.reject(new Error('rejected'))),
      store().onCommit(({ record }) => {
        heard.push(record.key);
      }),
    ];
    const key = nextKey();
    try {
      const flag = await createFlag(store(), 'default', key);
      t.is(flag.key, key);
      await store().flags.delete('default', key);
    } finally {
      for (const off of offs) off();
    }
    t.deepEqual(heard, [key, key]);
    await t.throwsAsync(store().flags.get('default', key), { message: `flag "default/${key}" not found` });
  });

  test.serial(`${dialect}: each subscription is its own, and an unsubscribed listener hears nothing more`, async (t) => {
    const heard: string[] = [];
    const listener = ({ record }: CommittedChange) => {
      heard.push(record.key);
    };
    const offFirst = store().onCommit(listener);
    const offSecond = store().onCommit(listener);
    const [a, b, c] = [nextKey(), nextKey(), nextKey()];
    await createFlag(store(), 'default', a);
    offFirst();
    offFirst();
    await createFlag(store(), 'default', b);
    offSecond();
    await createFlag(store(), 'default', c);
    t.deepEqual(heard, [a, a, b]);
  });
}

test('sqlite: without commitWaitMs a write waits for its listeners for more than a moment', async (t) => {
  const db = await createTestDatabase('sqlite');
  const store = await openStore({ url: db.url });
  try {
    await store.migrate();
    let settled = false;
    store.onCommit(async () => {
      await sleep(800);
      settled = true;
    });
    await createFlag(store, 'default', 'f');
    t.true(settled, 'the write answered after its listener settled');
  } finally {
    await store.close();
    await db.drop();
  }
});
