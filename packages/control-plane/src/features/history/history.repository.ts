import type { AuditPage, AuditQuery } from '@ensign/core';

/** The stored history of changes, one entry per committed write. */
export interface HistoryRepository {
  /** Newest first; paged by entry id. */
  list(query: AuditQuery): Promise<AuditPage>;
}
