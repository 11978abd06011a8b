import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * The history of changes: one row per committed write, inserted in the write's own transaction,
 * so the history holds exactly the writes that committed. No foreign keys: the history of a
 * deleted flag or namespace outlives it. `before` and `after` are the resource's JSON.
 */
export const name = '0004_audit_events';

const STAMP = 32;
const ENUM = 40;
const ID = 36;

export async function up(knex: Knex): Promise<void> {
  await createTable(knex, 'audit_events', (t) => {
    t.bigIncrements('id', { primaryKey: true });
    t.string('namespace_key', KEY).notNullable();
    t.bigInteger('revision').notNullable();
    t.string('resource', ENUM).notNullable();
    t.string('resource_key', KEY).notNullable();
    t.string('parent_key', KEY).nullable();
    t.string('action', ENUM).notNullable();
    t.string('actor_id', ID).nullable();
    t.string('actor_method', ENUM).nullable();
    t.string('actor_name', KEY).nullable();
    t.text('before', 'mediumtext').nullable();
    t.text('after', 'mediumtext').nullable();
    t.string('created_at', STAMP).notNullable();
    t.index(['namespace_key', 'id'], 'audit_events_namespace_idx');
    t.index(['created_at'], 'audit_events_created_idx');
    t.index(['resource_key'], 'audit_events_key_idx');
    t.index(['parent_key'], 'audit_events_parent_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
}
