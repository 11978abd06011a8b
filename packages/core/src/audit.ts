/**
 * The stored history of changes: every change record, kept in the database with the write that
 * made it, and how it is asked for (`GET /api/v1/audit/events`).
 */
import type { ChangeAction, ChangeRecord, ChangeResource } from './change-record.js';

/** One stored change record, with the id it was stored under (increasing with each write). */
export interface AuditEntry extends ChangeRecord {
  id: string;
}

/** What a history listing asks for; absent or empty filters match everything. */
export interface AuditQuery {
  namespaceKey?: string;
  resources: ChangeResource[];
  /** The resource's key, or the key of the flag or segment it belongs to. */
  key?: string;
  /** The actor's authentication id or name. */
  actor?: string;
  actions: ChangeAction[];
  /** Inclusive, UTC ISO-8601 as stored. */
  from?: string;
  /** Exclusive, UTC ISO-8601 as stored. */
  to?: string;
  limit: number;
  /** Resume below this entry id (from a page token). */
  beforeId?: string;
}

/** One page of the history, newest first. */
export interface AuditPage {
  events: AuditEntry[];
  nextPageToken: string;
  totalCount: number;
}

/** Entries per page when the request names no limit, and the most one page holds. */
export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 1000;
