/**
 * Keeps the namespace's snapshot current: each connection fetches the snapshot (conditionally on
 * the tag held), then opens the change feed from that tag, and fetches again whenever an event
 * names another tag. Any failure closes the connection and opens a new one after a backoff
 * delay; a refusal (401, 403) ends the sync for good.
 */
import type { ChangeFeed, FeedHandlers } from './change-feed.js';
import { streamUrl } from './ensign-routes.js';
import { type FetchTarget, fetchSnapshot, type ServedDocument } from './snapshot-fetch.js';
import type { ReconnectBackoff } from './reconnect-backoff.js';

export interface SyncHandlers {
  /** A snapshot other than the one held; throwing refuses it (the connection is dropped and retried). */
  snapshot(document: ServedDocument, etag: string | undefined): void;
  /** The feed is open: what is held is current, and every change from here on will be announced. */
  current(): void;
  lost(message: string): void;
  refused(status: number, message: string): void;
}

export type OpenFeed = (url: string, handlers: FeedHandlers) => ChangeFeed;

/** One connection: its feed, and the refetches its events ask for, folded so one runs at a time. */
interface Connection {
  alive: boolean;
  feed: ChangeFeed | undefined;
  openedAt: number | undefined;
  refetching: boolean;
  refetchAgain: boolean;
}

const isRefusal = (status: number | undefined): status is number => status === 401 || status === 403;

export class SnapshotSync {
  private etag: string | undefined;
  private connection: Connection | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly abort = new AbortController();
  private closed = false;

  constructor(
    private readonly target: FetchTarget,
    private readonly openFeed: OpenFeed,
    private readonly backoff: ReconnectBackoff,
    /** A connection that lasted this long was no flap: the next failure starts the backoff over. */
    private readonly stableAfterMs: number,
    private readonly handlers: SyncHandlers,
  ) {}

  start(): void {
    void this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.connection !== undefined) this.connection.alive = false;
    this.connection?.feed?.close();
    this.abort.abort();
  }

  private async connect(): Promise<void> {
    const connection: Connection = { alive: true, feed: undefined, openedAt: undefined, refetching: false, refetchAgain: false };
    this.connection = connection;
    if (!(await this.fetchLatest(connection))) return;
    connection.feed = this.openFeed(streamUrl(this.target.base, this.target.namespace, this.etag), {
      opened: () => {
        if (!connection.alive) return;
        connection.openedAt = Date.now();
        this.handlers.current();
      },
      changed: (etag) => {
        if (connection.alive && etag !== this.etag) void this.refetch(connection);
      },
      lost: (message, status) => this.drop(connection, message, status),
    });
  }

  /** Fetches what the tag held is not; false when the connection is gone (dropped here on failure). */
  private async fetchLatest(connection: Connection): Promise<boolean> {
    const result = await fetchSnapshot(this.target, this.etag, this.abort.signal);
    if (!connection.alive || this.closed) return false;
    switch (result.kind) {
      case 'unchanged':
        return true;
      case 'document':
        try {
          this.handlers.snapshot(result.document, result.etag);
        } catch (err) {
          this.drop(connection, `the snapshot was refused: ${err instanceof Error ? err.message : String(err)}`);
          return false;
        }
        this.etag = result.etag;
        return true;
      case 'refused':
        this.drop(connection, result.message, result.status);
        return false;
      case 'failed':
        this.drop(connection, result.message);
        return false;
    }
  }

  private async refetch(connection: Connection): Promise<void> {
    if (connection.refetching) {
      connection.refetchAgain = true;
      return;
    }
    connection.refetching = true;
    do {
      connection.refetchAgain = false;
      if (!(await this.fetchLatest(connection))) break;
    } while (connection.refetchAgain);
    connection.refetching = false;
  }

  private drop(connection: Connection, message: string, status?: number): void {
    if (!connection.alive || this.closed) return;
    connection.alive = false;
    connection.feed?.close();
    if (isRefusal(status)) {
      this.close();
      this.handlers.refused(status, message);
      return;
    }
    if (connection.openedAt !== undefined && Date.now() - connection.openedAt >= this.stableAfterMs) this.backoff.reset();
    this.handlers.lost(message);
    this.timer = setTimeout(() => void this.connect(), this.backoff.next());
  }
}
