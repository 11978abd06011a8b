import test from 'ava';
import type { ExecutionContext } from 'ava';
import { AppError, Code } from '@ensign/core';
import { openStore } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase, freePort, TcpProxy, TEST_DIALECTS } from '@ensign/testkit';
import type { TestDialect } from '@ensign/testkit';
import { createFlag } from './helpers/fixtures.js';

const SERVER_PORTS: Partial<Record<TestDialect, number>> = { postgres: 5432, mysql: 3306 };

/** Asserts that `promise` rejects with the 503 of a database that cannot be reached, the driver's error as its cause. */
async function unavailable(t: ExecutionContext, promise: Promise<unknown>, what: string): Promise<void> {
  const err = await t.throwsAsync(promise, { instanceOf: AppError, message: 'database unavailable' }, what);
  t.is((err as AppError | undefined)?.code, Code.Unavailable, what);
  t.true((err as AppError | undefined)?.cause instanceof Error, `${what}: the cause is kept`);
  t.log(`${what}: ${String((err?.cause as Error | undefined)?.message)}`);
}

/** Every path to the database: a plain read, a consistent read, a write, a delete, a listing, and the authentications' reads and writes. */
async function everyPathUnavailable(t: ExecutionContext, store: SqlStore): Promise<void> {
  await unavailable(t, store.flags.get('default', 'f'), 'read');
  await unavailable(t, store.revision('default'), 'revision');
  await unavailable(t, store.readNamespaceState('default'), 'consistent read');
  await unavailable(t, createFlag(store, 'default', 'g'), 'write');
  await unavailable(t, store.flags.delete('default', 'f'), 'delete');
  await unavailable(t, store.listNamespaceRevisions(), 'listing');
  await unavailable(t, store.authentications.getByDigest('d'), 'authentication read');
  await unavailable(t, store.authentications.create({ digest: 'd', method: 'METHOD_TOKEN', metadata: {} }), 'authentication write');
  await unavailable(t, store.authentications.deleteExpired(new Date()), 'authentication cleanup');
}

for (const dialect of TEST_DIALECTS) {
  test(`${dialect}: a store whose pool was destroyed answers 503`, async (t) => {
    const db = await createTestDatabase(dialect);
    try {
      const store = await openStore({ url: db.url });
      await store.close();
      await everyPathUnavailable(t, store);
    } finally {
      await db.drop();
    }
  });

  const serverPort = SERVER_PORTS[dialect];
  if (serverPort === undefined) continue;

  test(`${dialect}: a store whose server went away answers 503, and serves again once it is back`, async (t) => {
    const db = await createTestDatabase(dialect);
    const proxy = new TcpProxy(serverPort, await freePort());
    await proxy.open();
    const store = await openStore({ url: db.url.replace(`127.0.0.1:${serverPort}`, `127.0.0.1:${proxy.port}`) });
    try {
      await store.migrate();
      await createFlag(store, 'default', 'f');
      await proxy.close();
      await everyPathUnavailable(t, store);
      await proxy.open();
      t.is((await store.flags.get('default', 'f')).key, 'f');
    } finally {
      await proxy.close();
      await store.close();
      await db.drop();
    }
  });
}
