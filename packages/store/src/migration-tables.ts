import type { Knex } from 'knex';
import { MIGRATION_TABLE } from './migrations/index.js';

const LOCK_TABLE = `${MIGRATION_TABLE}_lock`;

/** Creates a table unless it exists; losing a creation race to another instance is fine. */
async function createIfMissing(knex: Knex, table: string, build: (t: Knex.CreateTableBuilder) => void): Promise<void> {
  if (await knex.schema.hasTable(table)) return;
  try {
    await knex.schema.createTable(table, build);
  } catch (err) {
    if (!(await knex.schema.hasTable(table))) throw err;
  }
}

/**
 * Creates knex's migration and lock tables (with knex's own layout) before knex looks for them.
 * knex checks-then-creates, so instances starting together could both create them, or insert
 * two lock rows that would then keep the lock taken for ever; the fixed lock row id here cannot
 * be inserted twice.
 */
export async function ensureMigrationTables(knex: Knex): Promise<void> {
  await createIfMissing(knex, MIGRATION_TABLE, (t) => {
    t.increments();
    t.string('name');
    t.integer('batch');
    t.timestamp('migration_time');
  });
  await createIfMissing(knex, LOCK_TABLE, (t) => {
    t.increments('index').primary();
    t.integer('is_locked');
  });
  if ((await knex(LOCK_TABLE).first('index')) !== undefined) return;
  try {
    await knex(LOCK_TABLE).insert({ index: 1, is_locked: 0 });
  } catch (err) {
    if ((await knex(LOCK_TABLE).first('index')) === undefined) throw err;
  }
}
