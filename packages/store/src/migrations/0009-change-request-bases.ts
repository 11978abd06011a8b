import type { Knex } from 'knex';

/**
 * What a change request was written against, and which request a recorded change belongs to.
 * `change_requests.base` holds, per resource its changes touch, the resource as it was when the
 * changes were proposed: an apply finding any of them different is a conflict. `audit_events.change_request`
 * holds the applied request's id, title, author and approvers (JSON) on each of its change records.
 */
export const name = '0009_change_request_bases';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_requests', (t) => {
    t.text('base', 'mediumtext').nullable();
  });
  await knex.schema.alterTable('audit_events', (t) => {
    t.text('change_request').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => t.dropColumn('change_request'));
  await knex.schema.alterTable('change_requests', (t) => t.dropColumn('base'));
}
