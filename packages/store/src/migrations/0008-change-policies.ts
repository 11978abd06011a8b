import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * Protected namespaces: how many approvals a change request of the namespace needs, and that direct
 * writes to it are refused. A namespace without a row (or with 0) is not protected.
 */
export const name = '0008_change_policies';

export async function up(knex: Knex): Promise<void> {
  await createTable(knex, 'change_policies', (t) => {
    t.string('namespace_key', KEY).notNullable();
    t.primary(['namespace_key'], 'change_policies_pkey');
    t.integer('required_approvals').notNullable();
    t.string('updated_at', 32).notNullable();
    t.foreign('namespace_key', 'change_policies_namespace_fk').references('key').inTable('namespaces').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('change_policies');
}
