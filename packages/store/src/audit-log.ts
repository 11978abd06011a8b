/** The `audit_events` table: how a change record is stored and read back. */
import type { Knex } from 'knex';
import type { AuditEntry, ChangeAction, ChangeRecord, ChangeRequestRef, ChangeResource } from '@ensign/core';

export const AUDIT_TABLE = 'audit_events';

/** One row of `audit_events`. */
export interface AuditRow {
  id: number | string;
  namespace_key: string;
  revision: number | string;
  resource: string;
  resource_key: string;
  parent_key: string | null;
  action: string;
  actor_id: string | null;
  actor_method: string | null;
  actor_name: string | null;
  before: string | null;
  after: string | null;
  change_request: string | null;
  created_at: string;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Stores `record` inside the transaction that made it, so it commits or rolls back with the write. */
export async function insertChangeRecord(trx: Knex.Transaction, record: ChangeRecord): Promise<void> {
  await changeRecordInsert(trx, record);
}

/** The statement storing `record`, to be sent on its own or with another. */
export function changeRecordInsert(trx: Knex.Transaction, record: ChangeRecord): Knex.QueryBuilder {
  return trx(AUDIT_TABLE).insert({
    namespace_key: record.namespaceKey,
    revision: record.revision,
    resource: record.resource,
    resource_key: record.key,
    parent_key: record.parentKey ?? null,
    action: record.action,
    actor_id: record.actor?.authenticationId ?? null,
    actor_method: record.actor?.method ?? null,
    actor_name: record.actor?.name ?? null,
    before: json(record.before),
    after: json(record.after),
    change_request: json(record.changeRequest),
    created_at: record.at,
  });
}

/** A stored row as the change record it was, with its id. */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    namespaceKey: row.namespace_key,
    revision: Number(row.revision),
    resource: row.resource as ChangeResource,
    key: row.resource_key,
    ...(row.parent_key === null ? {} : { parentKey: row.parent_key }),
    action: row.action as ChangeAction,
    ...(row.before === null ? {} : { before: JSON.parse(row.before) as unknown }),
    ...(row.after === null ? {} : { after: JSON.parse(row.after) as unknown }),
    ...(row.change_request === null || row.change_request === undefined ? {} : { changeRequest: JSON.parse(row.change_request) as ChangeRequestRef }),
    ...(row.actor_id === null
      ? {}
      : { actor: { authenticationId: row.actor_id, method: row.actor_method ?? '', ...(row.actor_name === null ? {} : { name: row.actor_name }) } }),
    at: row.created_at,
  };
}
