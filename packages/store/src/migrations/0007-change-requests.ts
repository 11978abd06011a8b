import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * Change requests and what happened to them. A request keeps its proposed changes as JSON and
 * their digest; approvals, rejections and comments are events, each about the digest it saw, so
 * replacing the changes voids every approval without deleting it. No foreign key to namespaces:
 * a request's record outlives its namespace, as the history does.
 */
export const name = '0007_change_requests';

const STAMP = 32;
const ID = 36;
const ENUM = 40;
const DIGEST = 64;

const actorColumns = (t: Knex.CreateTableBuilder, prefix: string): void => {
  t.string(`${prefix}_id`, ID).nullable();
  t.string(`${prefix}_method`, ENUM).nullable();
  t.string(`${prefix}_name`, KEY).nullable();
};

export async function up(knex: Knex): Promise<void> {
  await createTable(knex, 'change_requests', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'change_requests_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.text('title').notNullable();
    t.text('description').notNullable();
    t.string('state', ENUM).notNullable();
    t.text('changes', 'mediumtext').notNullable();
    t.string('digest', DIGEST).notNullable();
    actorColumns(t, 'author');
    t.string('apply_at', STAMP).nullable();
    t.text('suspended_reason').nullable();
    t.bigInteger('applied_revision').nullable();
    t.string('created_at', STAMP).notNullable();
    t.string('updated_at', STAMP).notNullable();
    t.index(['namespace_key', 'state'], 'change_requests_state_idx');
    t.index(['state', 'apply_at'], 'change_requests_due_idx');
  });
  await createTable(knex, 'change_request_events', (t) => {
    t.bigIncrements('id', { primaryKey: true });
    t.string('change_request_id', ID).notNullable();
    t.string('kind', ENUM).notNullable();
    t.string('digest', DIGEST).notNullable();
    t.text('comment').notNullable();
    actorColumns(t, 'actor');
    t.string('created_at', STAMP).notNullable();
    t.foreign('change_request_id', 'change_request_events_request_fk').references('id').inTable('change_requests').onDelete('CASCADE');
    t.index(['change_request_id', 'id'], 'change_request_events_request_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('change_request_events');
  await knex.schema.dropTable('change_requests');
}
