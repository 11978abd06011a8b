import { Model } from 'objection';

export type FlagStepKind = 'schedule' | 'window' | 'ramp';
export type FlagStepStatus = 'pending' | 'applied' | 'cancelled';

/**
 * A row of `flag_steps`: one moment a flag's evaluation changes by itself. `enabled` is set for
 * schedules; `detail` (JSON) says what a window edge or ramp step is.
 */
export class FlagStepModel extends Model {
  static override tableName = 'flag_steps';

  declare id: string;
  declare namespace_key: string;
  declare flag_key: string;
  declare at: string;
  declare kind: FlagStepKind;
  declare ref_id: string;
  declare enabled: boolean | number | null;
  declare detail: string | null;
  declare status: FlagStepStatus;
  declare created_by_id: string | null;
  declare created_by_method: string | null;
  declare created_by_name: string | null;
  declare created_at: string;
  declare applied_at: string | null;
}
