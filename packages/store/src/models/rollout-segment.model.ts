import { Model } from 'objection';
import type { SegmentOperator } from '@ensign/core';

/** A row of `rollout_segments`: the segment rule of a segment rollout. */
export class RolloutSegmentModel extends Model {
  static override tableName = 'rollout_segments';
  static override idColumn = 'rollout_id';

  declare rollout_id: string;
  declare segment_operator: SegmentOperator;
  declare value: boolean | number;
}
