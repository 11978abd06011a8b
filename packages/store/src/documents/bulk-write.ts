/**
 * Many rows in few statements: multi-row inserts and a CASE update, in chunks every engine
 * accepts (SQLite's compound SELECT limit of 500, which knex's multi-row insert uses there, and
 * the 65,535 bound parameters of PostgreSQL and MySQL).
 */
import type { Knex } from 'knex';

const MAX_ROWS = 500;
const MAX_PARAMETERS = 30_000;

/** Rows per statement for rows of `columns` values. */
const chunkSize = (columns: number): number => Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / Math.max(columns, 1))));

/** Inserts `rows` (all with the same columns) into `table`. */
export async function insertRows(trx: Knex.Transaction, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const size = chunkSize(Object.keys(rows[0] ?? {}).length);
  for (let i = 0; i < rows.length; i += size) await trx(table).insert(rows.slice(i, i + size));
}

/** Sets each flag's default variant: one `UPDATE … SET default_variant_id = CASE key …` per chunk of flags. */
export async function setDefaultVariants(trx: Knex.Transaction, namespaceKey: string, defaults: ReadonlyArray<readonly [flagKey: string, variantId: string]>): Promise<void> {
  for (let i = 0; i < defaults.length; i += MAX_ROWS) {
    const chunk = defaults.slice(i, i + MAX_ROWS);
    const cases = chunk.map(() => 'when ? then ?').join(' ');
    await trx('flags')
      .where('namespace_key', namespaceKey)
      .whereIn('key', chunk.map(([flagKey]) => flagKey))
      .update({ default_variant_id: trx.raw(`case ?? ${cases} end`, ['key', ...chunk.flat()]) });
  }
}
