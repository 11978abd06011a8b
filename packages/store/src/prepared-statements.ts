/**
 * PostgreSQL named prepared statements for the statements every write sends (its revision bump with
 * the state read, its writes sent together): each connection plans such a statement once instead
 * of on every write, and the state read's dozen sub-selects took about 0.45 ms to plan.
 * `db.prepared_statements_enabled: false` turns them off, as Flipt's setting of that name does, for
 * a pooler in transaction mode (PgBouncer) that cannot keep a statement on one server connection.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/** Most statement texts named per process; the rest go unnamed, so no server connection holds an unbounded set. */
const MOST_NAMES = 256;

/** The knex configurations (shared by their transactions' clients) whose statements are prepared. */
const enabled = new WeakSet<object>();
const names = new Map<string, string>();

const configOf = (db: Knex): object => (db.client as { config: object }).config;

/** Prepares the statements `db` (and every transaction on it) sends through `preparedRaw`. */
export function enablePreparedStatements(db: Knex): void {
  enabled.add(configOf(db));
}

/** The statement's name: a digest of its text, so one name never stands for two texts. */
function nameOf(sql: string): string | undefined {
  const known = names.get(sql);
  if (known !== undefined || names.size >= MOST_NAMES) return known;
  const name = `ensign_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
  names.set(sql, name);
  return name;
}

/** `db.raw(sql, bindings)`, sent as a named prepared statement where `db` prepares them. */
export function preparedRaw(db: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw {
  const raw = db.raw(sql, bindings);
  if (!enabled.has(configOf(db))) return raw;
  const name = nameOf(sql);
  return name === undefined ? raw : raw.options({ name });
}
