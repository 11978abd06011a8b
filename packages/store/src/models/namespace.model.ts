import { Model } from 'objection';
import type { Namespace } from '@ensign/core';

/** A row of `namespaces`; `revision` counts the committed writes in the namespace. */
export class NamespaceModel extends Model {
  static override tableName = 'namespaces';
  static override idColumn = 'key';

  declare key: string;
  declare name: string;
  declare description: string;
  declare protected: boolean | number;
  declare revision: number | string;
  declare state_modified_at: string;
  declare created_at: string;
  declare updated_at: string;
}

export const toNamespace = (row: NamespaceModel): Namespace => ({
  key: row.key,
  name: row.name,
  description: row.description,
  protected: !!row.protected,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
