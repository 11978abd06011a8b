import { Model } from 'objection';
import type { AuthMethod, StoredAuthentication } from '@ensign/core';

/** A row of `authentications`; `metadata` is a JSON object of strings as text. */
export class AuthenticationModel extends Model {
  static override tableName = 'authentications';
  static override idColumn = 'id';

  declare id: string;
  declare method: AuthMethod;
  declare client_token_digest: string;
  declare metadata: string;
  declare expires_at: string | null;
  declare created_at: string;
  declare updated_at: string;
}

export const toAuthentication = (row: AuthenticationModel): StoredAuthentication => ({
  id: row.id,
  method: row.method,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
  metadata: JSON.parse(row.metadata) as Record<string, string>,
});
