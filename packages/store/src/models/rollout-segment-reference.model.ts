import { Model } from 'objection';

/** A row of `rollout_segment_references`: one segment a segment rollout matches, in request order. */
export class RolloutSegmentReferenceModel extends Model {
  static override tableName = 'rollout_segment_references';
  static override idColumn = ['rollout_id', 'segment_key'];

  declare rollout_id: string;
  declare namespace_key: string;
  declare segment_key: string;
  declare position: number;
}
