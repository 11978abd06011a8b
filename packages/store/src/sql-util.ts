import type { Knex } from 'knex';
import { DEFAULT_NAMESPACE } from '@ensign/core';
import { preparedRaw } from './prepared-statements.js';

/** Keeps `IN (…)` lists well under every engine's bound-parameter limit. */
const CHUNK = 500;

/** Runs `query` over `values` in chunks and concatenates the results. */
export async function inChunks<V, R>(values: readonly V[], query: (chunk: V[]) => PromiseLike<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(...(await query(values.slice(i, i + CHUNK))));
  return out;
}

/** Groups rows by a key, keeping their order. */
export function groupBy<R>(rows: readonly R[], keyOf: (row: R) => string): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return groups;
}

// COMPAT(flipt): an empty namespace key means `default` (internal/storage/sql/common/*.go).
/** The namespace a request addresses. */
export const nsOf = (namespaceKey: string): string => (namespaceKey === '' ? DEFAULT_NAMESPACE : namespaceKey);

/** COUNT(*) of a table's rows matching `where`, as a number on every engine. */
export async function countRows(db: Knex, table: string, where: Record<string, string>): Promise<number> {
  const row = (await db(table).where(where).count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** Whether `db` speaks to PostgreSQL itself (not CockroachDB), where each statement is a network round trip worth folding. */
export const isPostgres = (db: Knex): boolean => (db.client as { config: Knex.Config }).config.client === 'pg';

/**
 * Sends writes whose results nobody reads: on PostgreSQL as one statement (each a data-modifying
 * `WITH` part; all see the same snapshot, so none may depend on another's rows), elsewhere in turn.
 */
export async function sendTogether(db: Knex, statements: readonly Knex.QueryBuilder[]): Promise<void> {
  if (statements.length > 1 && isPostgres(db)) {
    const parts = statements.map((s) => s.toSQL());
    await preparedRaw(db, `with ${parts.map((p, i) => `w${i} as (${p.sql})`).join(', ')} select 1`, parts.flatMap((p) => p.bindings));
    return;
  }
  for (const statement of statements) await statement;
}
