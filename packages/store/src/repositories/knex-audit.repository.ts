import type { Knex } from 'knex';
import { type AuditPage, type AuditQuery, encodePageToken } from '@ensign/core';
import { AUDIT_TABLE, type AuditRow, toAuditEntry } from '../audit-log.js';
import type { Transactor } from '../transactor.js';

/** The filters of `query` on the history table (everything but paging). */
function filtered(db: Knex, query: AuditQuery): Knex.QueryBuilder {
  let q = db(AUDIT_TABLE);
  if (query.namespaceKey !== undefined) q = q.where('namespace_key', query.namespaceKey);
  if (query.resources.length > 0) q = q.whereIn('resource', query.resources);
  if (query.actions.length > 0) q = q.whereIn('action', query.actions);
  const { key, actor } = query;
  if (key !== undefined) q = q.where((w) => w.where('resource_key', key).orWhere('parent_key', key));
  if (actor !== undefined) q = q.where((w) => w.where('actor_id', actor).orWhere('actor_name', actor));
  if (query.from !== undefined) q = q.where('created_at', '>=', query.from);
  if (query.to !== undefined) q = q.where('created_at', '<', query.to);
  return q;
}

/**
 * The stored history of changes (written by every write's own transaction, see `Transactor`):
 * listed newest first, paged by entry id so entries written meanwhile never shift a page, and
 * pruned by age.
 */
export class KnexAuditRepository {
  constructor(private readonly tx: Transactor) {}

  async list(query: AuditQuery): Promise<AuditPage> {
    const { rows, totalCount } = await this.tx.read(async (db) => {
      let page = filtered(db, query);
      if (query.beforeId !== undefined) page = page.where('id', '<', query.beforeId);
      const rows = (await page.orderBy('id', 'desc').limit(query.limit + 1)) as AuditRow[];
      const counted = (await filtered(db, query).count({ n: '*' })) as Array<{ n: number | string }>;
      return { rows, totalCount: Number(counted[0]?.n ?? 0) };
    });
    const more = rows.length > query.limit;
    const events = (more ? rows.slice(0, query.limit) : rows).map(toAuditEntry);
    const last = events.at(-1);
    return { events, nextPageToken: more && last !== undefined ? encodePageToken(last.id, 0) : '', totalCount };
  }

  /** Deletes the entries written before `before` and resolves how many; several instances may run it at once. */
  prune(before: Date): Promise<number> {
    const cutoff = before.toISOString();
    return this.tx.statement((db) => db(AUDIT_TABLE).where('created_at', '<', cutoff).delete());
  }
}
