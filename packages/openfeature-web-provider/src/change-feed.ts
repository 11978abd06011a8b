/**
 * The namespace's change notifications: a Server-Sent Events stream whose events name the entity
 * tag of the snapshot to fetch. A feed reports each failure once and then stays closed; the sync
 * decides when to open another.
 */

export interface FeedHandlers {
  /** The stream is open: from here on, every change is announced. */
  opened(): void;
  /** A snapshot other than the one held may be current. */
  changed(etag: string): void;
  /** The stream failed or ended; `status` when the server refused it with one. */
  lost(message: string, status?: number): void;
}

export interface ChangeFeed {
  close(): void;
}

/** Ensign's SSE event: `{"etag": "<tag>", "type": "refetchEvaluation"}`, or an error of the stream. */
export function readEvent(data: string, handlers: FeedHandlers): void {
  let event: { etag?: unknown; type?: unknown; message?: unknown };
  try {
    event = JSON.parse(data) as typeof event;
  } catch {
    return;
  }
  if (event.type === 'refetchEvaluation' && typeof event.etag === 'string') handlers.changed(event.etag);
  else if (event.type === 'error') handlers.lost(typeof event.message === 'string' ? event.message : 'the stream reported an error');
}
