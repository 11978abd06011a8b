import { Model } from 'objection';
import type { MatchType } from '@ensign/core';

/** A row of `segments`. */
export class SegmentModel extends Model {
  static override tableName = 'segments';
  static override idColumn = ['namespace_key', 'key'];

  declare namespace_key: string;
  declare key: string;
  declare name: string;
  declare description: string;
  declare match_type: MatchType;
  declare created_at: string;
  declare updated_at: string;
}
