import { Model } from 'objection';

/** A row of `rule_segments`: one segment a rule matches, in request order. */
export class RuleSegmentModel extends Model {
  static override tableName = 'rule_segments';
  static override idColumn = ['rule_id', 'segment_key'];

  declare rule_id: string;
  declare namespace_key: string;
  declare segment_key: string;
  declare position: number;
}
