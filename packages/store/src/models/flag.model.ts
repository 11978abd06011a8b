import { Model } from 'objection';
import type { FlagType } from '@ensign/core';

/** A row of `flags`; `metadata` and `prerequisites` are JSON as text, NULL when unset. */
export class FlagModel extends Model {
  static override tableName = 'flags';
  static override idColumn = ['namespace_key', 'key'];

  declare namespace_key: string;
  declare key: string;
  declare name: string;
  declare description: string;
  declare enabled: boolean | number;
  declare type: FlagType;
  declare default_variant_id: string | null;
  declare metadata: string | null;
  /** The flag's prerequisites as a JSON array, NULL when none. */
  declare prerequisites: string | null;
  declare created_at: string;
  declare updated_at: string;
}
