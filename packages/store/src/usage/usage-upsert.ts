/** The statements of `UsageRepository.record` in each engine's spelling of insert-or-update. */
import type { Knex } from 'knex';
import type { Dialect } from '../types.js';
import type { CountRow, LastRow } from './usage-rows.js';

export const LAST_TABLE = 'flag_evaluations_last';
export const BATCHES_TABLE = 'usage_batches';

/**
 * Rows per statement: far below every engine's bound-parameter limit (7 columns each), and below
 * SQLite's 500 terms of a compound SELECT, which is how knex writes a multi-row insert there.
 */
const CHUNK = 250;

/** `column` plus the incoming row's: MySQL reads the incoming row as `values(…)`, the others as `excluded`. */
const added = (db: Knex, dialect: Dialect, table: string, column: string): Knex.Raw =>
  dialect === 'mysql' ? db.raw('?? + values(??)', [column, column]) : db.raw('?? + excluded.??', [`${table}.${column}`, column]);

/** The later of `column` and the incoming row's (ISO-8601 text orders as time does). */
function later(db: Knex, dialect: Dialect, table: string, column: string): Knex.Raw {
  switch (dialect) {
    case 'mysql':
      return db.raw('greatest(??, values(??))', [column, column]);
    case 'sqlite':
      return db.raw('max(??, excluded.??)', [`${table}.${column}`, column]);
    case 'postgres':
    case 'cockroach':
      return db.raw('greatest(??, excluded.??)', [`${table}.${column}`, column]);
  }
}

/**
 * Records the batch id; false when it was recorded before, by this or another control plane.
 * A concurrent insert of the same id waits for the other transaction and then finds it.
 */
export async function claimBatch(trx: Knex.Transaction, dialect: Dialect, id: string, receivedAt: string): Promise<boolean> {
  if (dialect === 'mysql') {
    const [result] = (await trx.raw('insert ignore into ?? (??, ??) values (?, ?)', [BATCHES_TABLE, 'id', 'received_at', id, receivedAt])) as [{ affectedRows: number }];
    return result.affectedRows === 1;
  }
  const inserted = (await trx(BATCHES_TABLE).insert({ id, received_at: receivedAt }).onConflict('id').ignore().returning('id')) as unknown[];
  return inserted.length === 1;
}

/** Adds each row's count to its stored row, creating the rows not stored yet. */
export async function addCounts(trx: Knex.Transaction, dialect: Dialect, table: string, rows: readonly CountRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx(table)
      .insert(rows.slice(i, i + CHUNK))
      .onConflict(['series', 'bucket'])
      .merge({ count: added(trx, dialect, table, 'count') });
  }
}

/** Moves each flag's last evaluation forward, never back (batches may arrive out of order). */
export async function raiseLast(trx: Knex.Transaction, dialect: Dialect, rows: readonly LastRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx(LAST_TABLE)
      .insert(rows.slice(i, i + CHUNK))
      .onConflict(['namespace_key', 'flag_key'])
      .merge({ last_evaluated_at: later(trx, dialect, LAST_TABLE, 'last_evaluated_at') });
  }
}
