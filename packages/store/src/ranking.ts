import type { Knex } from 'knex';
import { invalidField } from '@ensign/core';

/** The rules or rollouts of one flag, which share rank bookkeeping. */
export interface RankedTable {
  table: 'rules' | 'rollouts';
  /** The request field that lists ids when ordering (`ruleIds` / `rolloutIds`). */
  idsField: 'ruleIds' | 'rolloutIds';
  /** The singular noun in messages (`rule` / `rollout`). */
  noun: 'rule' | 'rollout';
}

/** Ids of a flag's rules (rollouts), by rank. */
export async function idsByRank(db: Knex, t: RankedTable, namespaceKey: string, flagKey: string): Promise<string[]> {
  const rows = (await db(t.table)
    .select('id')
    .where({ namespace_key: namespaceKey, flag_key: flagKey })
    .orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }])) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/**
 * Assigns ranks 1..n in the order of `ids`, which must name each of the flag's rules (rollouts)
 * exactly once: a partial or padded list would leave two at one rank.
 */
export async function orderRanks(
  trx: Knex.Transaction,
  t: RankedTable,
  namespaceKey: string,
  flagKey: string,
  ids: readonly string[],
  at: string,
): Promise<void> {
  const current = await idsByRank(trx, t, namespaceKey, flagKey);
  const wanted = new Set(ids);
  if (wanted.size !== ids.length || ids.length !== current.length || current.some((id) => !wanted.has(id))) {
    throw invalidField(t.idsField, `must contain each ${t.noun} of flag "${namespaceKey}/${flagKey}" exactly once`);
  }
  await setRanks(trx, t, ids, at);
}

/** Re-numbers a flag's remaining rules (rollouts) 1..n by their current rank. */
export async function renumber(
  trx: Knex.Transaction,
  t: RankedTable,
  namespaceKey: string,
  flagKey: string,
  at: string,
): Promise<void> {
  const rows = (await trx(t.table)
    .select('id', 'rank')
    .where({ namespace_key: namespaceKey, flag_key: flagKey })
    .orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }])) as Array<{ id: string; rank: number }>;
  for (const [i, row] of rows.entries()) {
    if (Number(row.rank) !== i + 1) await trx(t.table).where({ id: row.id }).update({ rank: i + 1, updated_at: at });
  }
}

async function setRanks(trx: Knex.Transaction, t: RankedTable, ids: readonly string[], at: string): Promise<void> {
  for (const [i, id] of ids.entries()) await trx(t.table).where({ id }).update({ rank: i + 1, updated_at: at });
}

export const RULES: RankedTable = { table: 'rules', idsField: 'ruleIds', noun: 'rule' };
export const ROLLOUTS: RankedTable = { table: 'rollouts', idsField: 'rolloutIds', noun: 'rollout' };
