import { Model } from 'objection';
import type { Distribution } from '@ensign/core';

/** A row of `distributions`. */
export class DistributionModel extends Model {
  static override tableName = 'distributions';

  declare id: string;
  declare rule_id: string;
  declare variant_id: string;
  declare rollout: number;
  declare created_at: string;
  declare updated_at: string;
}

export const toDistribution = (row: DistributionModel): Distribution => ({
  id: row.id,
  ruleId: row.rule_id,
  variantId: row.variant_id,
  rollout: Number(row.rollout),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
