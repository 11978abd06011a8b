import type { Knex } from 'knex';
import type { Distribution, Rule } from '@ensign/core';
import { DistributionModel, toDistribution } from '../models/distribution.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { RuleModel } from '../models/rule.model.js';
import { presentSegmentKeys } from '../segment-keys.js';
import { groupBy, inChunks } from '../sql-util.js';
import { windowOf } from './window.js';

/** A rule row as the wire reports it, given its segment keys in order and its distributions. */
export const toRule = (row: RuleModel, segmentKeys: readonly string[], distributions: Distribution[]): Rule => ({
  id: row.id,
  namespaceKey: row.namespace_key,
  flagKey: row.flag_key,
  ...presentSegmentKeys(segmentKeys),
  segmentOperator: row.segment_operator,
  distributions,
  rank: Number(row.rank),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  ...windowOf(row),
});

/** Rules with their segment keys (in request order) and distributions (by creation). */
export async function withRuleParts(db: Knex, rows: RuleModel[]): Promise<Rule[]> {
  const ids = rows.map((r) => r.id);
  const segmentRows = await inChunks(ids, (chunk) =>
    RuleSegmentModel.query(db).whereIn('rule_id', chunk).orderBy([{ column: 'rule_id' }, { column: 'position' }]),
  );
  const distributionRows = await inChunks(ids, (chunk) =>
    DistributionModel.query(db).whereIn('rule_id', chunk).orderBy([{ column: 'created_at' }, { column: 'id' }]),
  );
  const segmentsByRule = groupBy(segmentRows, (s) => s.rule_id);
  const distributionsByRule = groupBy(distributionRows, (d) => d.rule_id);
  return rows.map((row) =>
    toRule(
      row,
      (segmentsByRule.get(row.id) ?? []).map((s) => s.segment_key),
      (distributionsByRule.get(row.id) ?? []).map(toDistribution),
    ),
  );
}

/** One rule of a flag, or undefined. */
export async function loadRule(db: Knex, namespaceKey: string, flagKey: string, id: string): Promise<Rule | undefined> {
  const row = await RuleModel.query(db).findOne({ id, namespace_key: namespaceKey, flag_key: flagKey });
  if (row === undefined) return undefined;
  const [rule] = await withRuleParts(db, [row]);
  return rule;
}
