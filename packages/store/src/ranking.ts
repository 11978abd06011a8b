import type { Knex } from 'knex';
import { invalidField, notFound, type OrderItems, type Rollout, type Rule } from '@ensign/core';
import { deleted, reordered } from './change-draft.js';
import { flagPartSubject, rankOrderSubject } from './change-subjects.js';
import { dropPartSteps } from './flag-steps.js';
import { loadRollout } from './loaders/rollout.loader.js';
import { loadRule } from './loaders/rule.loader.js';
import { FlagModel } from './models/flag.model.js';
import { nsOf } from './sql-util.js';
import type { Transactor } from './transactor.js';

/** The rules or rollouts of one flag, which share rank bookkeeping. */
export interface RankedTable {
  table: 'rules' | 'rollouts';
  /** The request field that lists ids when ordering (`ruleIds` / `rolloutIds`). */
  idsField: 'ruleIds' | 'rolloutIds';
  /** The singular noun in messages and change records (`rule` / `rollout`). */
  noun: 'rule' | 'rollout';
  /** One of them as the API's get reports it, or undefined. */
  load(db: Knex, namespaceKey: string, flagKey: string, id: string): Promise<Rule | Rollout | undefined>;
}

/** Rank order, with creation and id breaking ties the same way on every engine. */
export const BY_RANK = [{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }];

/** A flag's rules (rollouts) by rank: their ids and ranks. */
async function byRank(db: Knex, t: RankedTable, namespaceKey: string, flagKey: string): Promise<Array<{ id: string; rank: number }>> {
  return (await db(t.table)
    .select('id', 'rank')
    .where({ namespace_key: namespaceKey, flag_key: flagKey })
    .orderBy(BY_RANK)) as Array<{ id: string; rank: number }>;
}

/** Ids of a flag's rules (rollouts), by rank. */
export async function idsByRank(db: Knex, t: RankedTable, namespaceKey: string, flagKey: string): Promise<string[]> {
  return (await byRank(db, t, namespaceKey, flagKey)).map((r) => r.id);
}

/**
 * Assigns ranks 1..n in the order of `ids`, which must name each of the flag's rules (rollouts)
 * exactly once: a partial or padded list would leave two at one rank. Returns the previous order.
 */
export async function orderRanks(
  trx: Knex.Transaction,
  t: RankedTable,
  namespaceKey: string,
  flagKey: string,
  ids: readonly string[],
  at: string,
): Promise<string[]> {
  const current = await idsByRank(trx, t, namespaceKey, flagKey);
  const wanted = new Set(ids);
  if (wanted.size !== ids.length || ids.length !== current.length || current.some((id) => !wanted.has(id))) {
    throw invalidField(t.idsField, `must contain each ${t.noun} of flag "${namespaceKey}/${flagKey}" exactly once`);
  }
  await setRanks(trx, t, ids, at);
  return current;
}

/** Re-numbers a flag's remaining rules (rollouts) 1..n by their current rank. */
export async function renumber(
  trx: Knex.Transaction,
  t: RankedTable,
  namespaceKey: string,
  flagKey: string,
  at: string,
): Promise<void> {
  for (const [i, row] of (await byRank(trx, t, namespaceKey, flagKey)).entries()) {
    if (Number(row.rank) !== i + 1) await trx(t.table).where({ id: row.id }).update({ rank: i + 1, updated_at: at });
  }
}

/** The order operation of rules (rollouts), one `reordered` change on the flag: the flag must exist; see `orderRanks`. */
export function orderOnFlag(tx: Transactor, t: RankedTable, req: OrderItems): Promise<void> {
  const ns = nsOf(req.namespaceKey);
  const flagNotFound = () => notFound(`flag "${ns}/${req.flagKey}" not found`);
  return tx.write(
    ns,
    async (trx, at) => {
      if ((await FlagModel.query(trx).findById([ns, req.flagKey])) === undefined) throw flagNotFound();
      const before = await orderRanks(trx, t, ns, req.flagKey, req.ids, at);
      return reordered(rankOrderSubject(t.noun, req.flagKey), before, [...req.ids]);
    },
    { ifNamespaceMissing: flagNotFound },
  );
}

/**
 * Deletes one rule (rollout), whose parts go with it (ON DELETE CASCADE), and renumbers the rest;
 * deleting one that does not exist succeeds and commits nothing.
 */
export function deleteRanked(tx: Transactor, t: RankedTable, namespaceKey: string, flagKey: string, id: string): Promise<void> {
  const ns = nsOf(namespaceKey);
  return tx.remove(ns, async (trx, at) => {
    const before = await t.load(trx, ns, flagKey, id);
    if (before === undefined) return undefined;
    await trx(t.table).where({ id, namespace_key: ns, flag_key: flagKey }).delete();
    await dropPartSteps(trx, id);
    await renumber(trx, t, ns, flagKey, at);
    return deleted(flagPartSubject(t.noun, flagKey, id), before);
  });
}

async function setRanks(trx: Knex.Transaction, t: RankedTable, ids: readonly string[], at: string): Promise<void> {
  for (const [i, id] of ids.entries()) await trx(t.table).where({ id }).update({ rank: i + 1, updated_at: at });
}

export const RULES: RankedTable = { table: 'rules', idsField: 'ruleIds', noun: 'rule', load: loadRule };
export const ROLLOUTS: RankedTable = { table: 'rollouts', idsField: 'rolloutIds', noun: 'rollout', load: loadRollout };
