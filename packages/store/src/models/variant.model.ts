import { Model } from 'objection';
import type { Variant } from '@ensign/core';

/** A row of `variants`; the attachment is stored as given (already compacted), NULL when empty. */
export class VariantModel extends Model {
  static override tableName = 'variants';

  declare id: string;
  declare namespace_key: string;
  declare flag_key: string;
  declare key: string;
  declare name: string;
  declare description: string;
  declare attachment: string | null;
  declare created_at: string;
  declare updated_at: string;
}

export const toVariant = (row: VariantModel): Variant => ({
  id: row.id,
  namespaceKey: row.namespace_key,
  flagKey: row.flag_key,
  key: row.key,
  name: row.name,
  description: row.description,
  attachment: row.attachment ?? '',
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
