/** Last revisions of deleted namespaces (migration 0002), so a key's revisions never go backwards. */
import type { Knex } from 'knex';
import type { Dialect } from './types.js';

const TOMBSTONES = 'namespace_tombstones';

/** Records the revision a deleted namespace ended at. */
export async function leaveTombstone(trx: Knex.Transaction, key: string, revision: number): Promise<void> {
  await trx(TOMBSTONES).insert({ key, revision }).onConflict('key').merge();
}

/**
 * The revision a namespace created under `key` starts at, consuming the key's tombstone. Call it
 * after inserting the namespace row: the insert waits for a delete of this key still in flight,
 * so the tombstone read is that delete's.
 */
export async function takeTombstone(trx: Knex.Transaction, dialect: Dialect, key: string): Promise<number> {
  const query = trx(TOMBSTONES).where({ key }).first('revision');
  // A locking read sees the latest committed tombstone even inside MySQL's repeatable-read view.
  const row = (await (dialect === 'sqlite' ? query : query.forUpdate())) as { revision: number | string } | undefined;
  if (row === undefined) return 1;
  await trx(TOMBSTONES).where({ key }).delete();
  return Number(row.revision) + 1;
}
