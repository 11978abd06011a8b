import { Model } from 'objection';
import type { ComparisonType, Constraint } from '@ensign/core';

/** A row of `constraints`. */
export class ConstraintModel extends Model {
  static override tableName = 'constraints';

  declare id: string;
  declare namespace_key: string;
  declare segment_key: string;
  declare type: ComparisonType;
  declare property: string;
  declare operator: string;
  declare value: string;
  declare description: string;
  declare created_at: string;
  declare updated_at: string;
}

export const toConstraint = (row: ConstraintModel): Constraint => ({
  id: row.id,
  namespaceKey: row.namespace_key,
  segmentKey: row.segment_key,
  type: row.type,
  property: row.property,
  operator: row.operator,
  value: row.value,
  description: row.description,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
