/**
 * Authentication writes get the retry every write gets: a statement the database aborted only
 * because another raced it is run again, a few times. The race is staged with a trigger that
 * raises the engine's own transient error (PostgreSQL's serialization failure, MySQL's deadlock) on
 * the first attempts, counting them where a rollback does not undo the count.
 */
import test from 'ava';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { NewAuthentication } from '@ensign/core';
import { openStore, parseDatabaseUrl } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase } from '@ensign/testkit';
import type { TestDialect } from '@ensign/testkit';

interface Staging {
  /** Statements making the first `failures` inserts into `authentications` fail as raced. */
  setup(failures: number): string[];
  /** How many inserts the trigger has seen, as `n`. */
  attempts: string;
}

const STAGING: Partial<Record<TestDialect, Staging>> = {
  postgres: {
    setup: (failures) => [
      // A sequence is not transactional: the count survives the rollback of each failed attempt.
      'CREATE SEQUENCE flaky_attempts',
      `CREATE FUNCTION flaky() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('flaky_attempts') <= ${failures} THEN
            RAISE EXCEPTION 'could not serialize access due to concurrent update' USING ERRCODE = 'serialization_failure';
          END IF;
          RETURN NEW;
        END $$`,
      'CREATE TRIGGER flaky BEFORE INSERT ON authentications FOR EACH ROW EXECUTE FUNCTION flaky()',
    ],
    attempts: 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM flaky_attempts',
  },
  mysql: {
    setup: (failures) => [
      // MyISAM is not transactional: the count survives the rollback of each failed attempt.
      'CREATE TABLE flaky_attempts (n INT NOT NULL) ENGINE=MyISAM',
      'INSERT INTO flaky_attempts (n) VALUES (0)',
      `CREATE TRIGGER flaky BEFORE INSERT ON authentications FOR EACH ROW
        BEGIN
          UPDATE flaky_attempts SET n = n + 1;
          IF (SELECT n FROM flaky_attempts) <= ${failures} THEN
            SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'Deadlock found when trying to get lock';
          END IF;
        END`,
    ],
    attempts: 'SELECT n FROM flaky_attempts',
  },
};

const token = (digest: string): NewAuthentication => ({ digest, method: 'METHOD_TOKEN', metadata: { 'io.flipt.auth.token.name': 'ci' } });

/** Runs `work` on a migrated store whose first `failures` authentication inserts fail as raced, and a way to count the attempts. */
async function withRacedInserts(
  dialect: TestDialect,
  staging: Staging,
  failures: number,
  work: (store: SqlStore, attempts: () => Promise<number>) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase(dialect);
  const { client, connection } = parseDatabaseUrl(db.url);
  const raw: Knex = knexFactory({ client, connection });
  const store = await openStore({ url: db.url });
  try {
    await store.migrate();
    for (const sql of staging.setup(failures)) await raw.raw(sql);
    const attempts = async (): Promise<number> => {
      const rows = (await raw.raw(staging.attempts)) as unknown;
      // pg answers `{ rows }`, mysql2 `[rows, fields]`.
      const list = (Array.isArray(rows) ? rows[0] : (rows as { rows: unknown[] }).rows) as Array<{ n: number | string }>;
      return Number(list[0]?.n);
    };
    await work(store, attempts);
  } finally {
    await store.close();
    await raw.destroy();
    await db.drop();
  }
}

for (const [dialect, staging] of Object.entries(STAGING) as Array<[TestDialect, Staging]>) {
  test(`${dialect}: an authentication is created through transient failures`, async (t) => {
    await withRacedInserts(dialect, staging, 2, async (store, attempts) => {
      const created = await store.authentications.create(token('raced'));
      t.is(await attempts(), 3, 'two raced attempts, then the one that committed');
      t.deepEqual(await store.authentications.getByDigest('raced'), created);
      t.is((await store.authentications.list({ limit: 0 })).authentications.length, 1, 'stored once');
    });
  });

  test(`${dialect}: a write that keeps failing as raced is given up after a few attempts`, async (t) => {
    await withRacedInserts(dialect, staging, 1000, async (store, attempts) => {
      await t.throwsAsync(store.authentications.create(token('doomed')));
      const tried = await attempts();
      t.true(tried > 1 && tried < 1000, `retried, then given up (${tried} attempts)`);
      t.is(await store.authentications.getByDigest('doomed'), undefined);
    });
  });
}
