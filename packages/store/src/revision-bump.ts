/**
 * The revision bump that starts every write of flag state (and locks its namespace's row), and what
 * a write may read with it.
 */
import type { Knex } from 'knex';
import { bumpAndReadFlags } from './loaders/flags-state-statement.js';
import { type FlagsRead, readFlagsState } from './loaders/flags-state.loader.js';
import { readStateFlags } from './loaders/state-parts.loader.js';
import { isPostgres } from './sql-util.js';

/** `revision + 1` on the namespace row; undefined when there is no such namespace. */
export async function bumpRevision(trx: Knex.Transaction, key: string, at: string): Promise<number | undefined> {
  if (isPostgres(trx)) {
    const rows = (await trx('namespaces')
      .where({ key })
      .update({ revision: trx.raw('?? + 1', ['revision']), state_modified_at: at }, ['revision'])) as Array<{ revision: number | string }>;
    return rows[0] === undefined ? undefined : Number(rows[0].revision);
  }
  const updated = await trx('namespaces')
    .where({ key })
    .update({ revision: trx.raw('?? + 1', ['revision']), state_modified_at: at });
  if (updated === 0) return undefined;
  const row = (await trx('namespaces').where({ key }).first('revision')) as { revision: number | string } | undefined;
  return row === undefined ? undefined : Number(row.revision);
}

/** Flags a write starts from: their state, or only their rows with their variants. */
export interface FirstRead {
  keys: readonly string[];
  only?: 'flags';
}

/** The flags of `first` as they stand (the state's other parts empty when only the flags are asked). */
export async function readFirst(trx: Knex.Transaction, ns: string, first: FirstRead): Promise<FlagsRead> {
  if (first.only === undefined) return readFlagsState(trx, ns, first.keys);
  const keys = [...new Set(first.keys)];
  const flags = await readStateFlags(trx, ns, keys);
  const found = new Set(flags.map((f) => f.key));
  return { state: { flags, rules: [], rollouts: [], segments: [], schedules: [] }, removed: keys.filter((k) => !found.has(k)) };
}

/** The revision bump and, when asked, the flags a write starts from; undefined when there is no such namespace. */
export async function bumpAndRead(trx: Knex.Transaction, key: string, at: string, first: FirstRead | undefined): Promise<{ revision: number; read?: FlagsRead } | undefined> {
  if (first !== undefined && isPostgres(trx)) return bumpAndReadFlags(trx, key, at, first.keys, first.only ?? 'state');
  const revision = await bumpRevision(trx, key, at);
  if (revision === undefined) return undefined;
  return first === undefined ? { revision } : { revision, read: await readFirst(trx, key, first) };
}
