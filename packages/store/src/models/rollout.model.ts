import { Model } from 'objection';
import type { RolloutType } from '@ensign/core';

/** A row of `rollouts`; its rule lives in `rollout_thresholds` or `rollout_segments`. */
export class RolloutModel extends Model {
  static override tableName = 'rollouts';

  declare id: string;
  declare namespace_key: string;
  declare flag_key: string;
  declare type: RolloutType;
  declare rank: number;
  declare description: string;
  declare valid_from: string | null;
  declare valid_until: string | null;
  declare created_at: string;
  declare updated_at: string;
}
