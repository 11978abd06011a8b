import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * The last revision of each deleted namespace, so a namespace re-created under the same key
 * continues after it: evaluators ignore snapshots not newer than one they hold or saw deleted.
 */
export const name = '0002_namespace_tombstones';

export async function up(knex: Knex): Promise<void> {
  await createTable(knex, 'namespace_tombstones', (t) => {
    t.string('key', KEY).notNullable();
    t.primary(['key'], 'namespace_tombstones_pkey');
    t.bigInteger('revision').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('namespace_tombstones');
}
