import { Model } from 'objection';
import type { SegmentOperator } from '@ensign/core';

/** A row of `rules`; its segments are rows of `rule_segments`. */
export class RuleModel extends Model {
  static override tableName = 'rules';

  declare id: string;
  declare namespace_key: string;
  declare flag_key: string;
  declare rank: number;
  declare segment_operator: SegmentOperator;
  declare valid_from: string | null;
  declare valid_until: string | null;
  declare created_at: string;
  declare updated_at: string;
}
