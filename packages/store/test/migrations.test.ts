import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Code } from '@ensign/core';
import { MIGRATIONS, openStore } from '@ensign/store';
import { createTestDatabase, TEST_DIALECTS } from '@ensign/testkit';
import { rejects } from './helpers/store-harness.js';

const ALL = MIGRATIONS.map((m) => m.name);

for (const dialect of TEST_DIALECTS) {
  test(`${dialect}: ping fails until migrated, migrate is idempotent and seeds a protected default namespace`, async (t) => {
    const db = await createTestDatabase(dialect);
    const store = await openStore({ url: db.url });
    try {
      t.is(store.dialect, dialect);
      t.deepEqual(await store.pendingMigrations(), ALL);
      await rejects(t, store.ping(), Code.Unavailable, `migrations pending, please backup your database and run \`ensign migrate\` (${ALL.join(', ')})`);

      t.deepEqual(await store.migrate(), ALL);
      t.deepEqual(await store.migrate(), []);
      t.deepEqual(await store.pendingMigrations(), []);
      await t.notThrowsAsync(store.ping());

      const ns = await store.namespaces.get('default');
      t.like(ns, { key: 'default', name: 'Default', description: 'Default namespace', protected: true });
      t.regex(ns.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      t.is(await store.revision('default'), 1);
      await rejects(t, store.revision('nope'), Code.NotFound, 'namespace "nope" not found');

      await store.close();
      await t.throwsAsync(store.ping(), { any: true });
    } finally {
      await store.close();
      await db.drop();
    }
  });

  // In one process, better-sqlite3 waits for a lock synchronously, so SQLite instances migrate in turn.
  const together = dialect !== 'sqlite';
  test(`${dialect}: two instances migrating ${together ? 'at once' : 'in turn'} apply each migration exactly once`, async (t) => {
    const db = await createTestDatabase(dialect);
    const a = await openStore({ url: db.url });
    const b = await openStore({ url: db.url });
    try {
      const [fromA, fromB] = together ? await Promise.all([a.migrate(), b.migrate()]) : [await a.migrate(), await b.migrate()];
      t.deepEqual([...fromA, ...fromB].sort(), ALL);
      await t.notThrowsAsync(a.ping());
      await t.notThrowsAsync(b.ping());
      t.is((await a.namespaces.list({ limit: 0, offset: 0 })).totalCount, 1);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
  test(`${dialect}: force deletes even the protected default namespace, with everything in it`, async (t) => {
    const db = await createTestDatabase(dialect);
    const store = await openStore({ url: db.url });
    try {
      await store.migrate();
      await store.flags.create({ namespaceKey: 'default', key: 'f', name: 'f', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
      await rejects(t, store.namespaces.delete('default', false), Code.InvalidArgument, 'namespace "default" is protected');
      await store.namespaces.delete('default', true);
      await rejects(t, store.namespaces.get('default'), Code.NotFound, 'namespace "default" not found');
      t.is((await store.flags.list('default', { limit: 0, offset: 0 })).totalCount, 0);
    } finally {
      await store.close();
      await db.drop();
    }
  });
}

test('sqlite: opening creates the database file and its missing parent directories', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-open-'));
  const file = join(dir, 'nested', 'deeper', 'ensign.db');
  try {
    const store = await openStore({ url: `file:${file}` });
    t.true(existsSync(file));
    await store.migrate();
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an unreachable server is reported by openStore', async (t) => {
  await t.throwsAsync(openStore({ url: 'postgres://postgres@127.0.0.1:1/none' }));
});
