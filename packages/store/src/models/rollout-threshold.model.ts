import { Model } from 'objection';

/** A row of `rollout_thresholds`: the percentage rule of a threshold rollout. */
export class RolloutThresholdModel extends Model {
  static override tableName = 'rollout_thresholds';
  static override idColumn = 'rollout_id';

  declare rollout_id: string;
  declare percentage: number;
  declare value: boolean | number;
  /** The ramp's steps as a JSON array, NULL when none. */
  declare ramp: string | null;
}
