import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * Evaluation counts sent by the processes that evaluate, kept per minute (for the analytics
 * series) and per hour (for usage and staleness over long windows), each flag's last evaluation,
 * and the ids of the batches stored, so a batch delivered twice is counted once. No foreign keys:
 * counts arrive for flags that were deleted meanwhile, or never existed.
 *
 * A count row is identified by `series`, a digest of its namespace, flag, value and reason, and its
 * bucket: those four keys together are wider than the 3072 bytes MySQL can index in utf8mb4.
 * Buckets are the minute's or hour's start as UTC ISO-8601 text, like every other timestamp, so
 * ranges are plain string comparisons on each engine.
 */
export const name = '0005_evaluation_counts';

const STAMP = 32;
const REASON = 64;
/** Hex of a 128-bit digest. */
const SERIES = 32;

function countsTable(knex: Knex, table: string): Knex.SchemaBuilder {
  return createTable(knex, table, (t) => {
    t.string('series', SERIES).notNullable();
    t.string('bucket', STAMP).notNullable();
    t.primary(['series', 'bucket'], `${table}_pkey`);
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.string('value', KEY).notNullable();
    t.string('reason', REASON).notNullable();
    t.bigInteger('count').notNullable();
    t.index(['namespace_key', 'flag_key', 'bucket'], `${table}_flag_idx`);
    t.index(['namespace_key', 'bucket'], `${table}_namespace_idx`);
    t.index(['bucket'], `${table}_bucket_idx`);
  });
}

export async function up(knex: Knex): Promise<void> {
  await countsTable(knex, 'evaluation_counts');
  await countsTable(knex, 'evaluation_hours');
  await createTable(knex, 'flag_evaluations_last', (t) => {
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.primary(['namespace_key', 'flag_key'], 'flag_evaluations_last_pkey');
    t.string('last_evaluated_at', STAMP).notNullable();
    t.index(['last_evaluated_at'], 'flag_evaluations_last_at_idx');
  });
  await createTable(knex, 'usage_batches', (t) => {
    t.string('id', KEY).notNullable();
    t.primary(['id'], 'usage_batches_pkey');
    t.string('received_at', STAMP).notNullable();
    t.index(['received_at'], 'usage_batches_received_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['usage_batches', 'flag_evaluations_last', 'evaluation_hours', 'evaluation_counts']) await knex.schema.dropTableIfExists(table);
}
