import type { Knex } from 'knex';
import { ensureMigrationTables } from './migration-tables.js';
import { MIGRATION_TABLE, MIGRATIONS, migrationSource } from './migrations/index.js';
import type { MigrationModule } from './migrations/index.js';

const config: Knex.MigratorConfig = { migrationSource, tableName: MIGRATION_TABLE };

/** How long a start waits for another process that holds the migration lock. */
const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 250;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies pending migrations and returns their names. When another instance is migrating the
 * same database (knex's lock is taken), waits for it and then applies whatever is still pending.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  await ensureMigrationTables(knex);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const [, applied] = (await knex.migrate.latest(config)) as [number, string[]];
      return applied;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'MigrationLocked') || Date.now() > deadline) throw err;
      await sleep(LOCK_POLL_MS);
    }
  }
}

/** Names of the migrations the database has not applied yet. */
export async function listPending(knex: Knex): Promise<string[]> {
  // A database that was never migrated has everything pending; asking knex would create its tables.
  if (!(await knex.schema.hasTable(MIGRATION_TABLE))) return MIGRATIONS.map((m) => m.name);
  await ensureMigrationTables(knex);
  const [, pending] = (await knex.migrate.list(config)) as [unknown[], MigrationModule[]];
  return pending.map((m) => migrationSource.getMigrationName(m));
}
