import type { Knex } from 'knex';
import { isMysql } from './create-table.js';

/**
 * Constraints by their segment: a write reads the constraints of the segments its flags use, and
 * without this index PostgreSQL, CockroachDB and SQLite read every constraint of the database.
 * MySQL already has one, made for the foreign key to segments.
 */
export const name = '0010_constraint_segment_index';

const INDEX = 'constraints_segment_idx';

export async function up(knex: Knex): Promise<void> {
  if (isMysql(knex)) return;
  await knex.schema.alterTable('constraints', (t) => t.index(['namespace_key', 'segment_key'], INDEX));
}

export async function down(knex: Knex): Promise<void> {
  if (isMysql(knex)) return;
  await knex.schema.alterTable('constraints', (t) => t.dropIndex(['namespace_key', 'segment_key'], INDEX));
}
