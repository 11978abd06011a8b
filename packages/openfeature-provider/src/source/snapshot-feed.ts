/**
 * Keeps one namespace's snapshots coming from Ensign, preferring the stream: it is reconnected with
 * backoff whenever it ends, and the client-side snapshot is polled with `If-None-Match` every poll
 * interval beside it. While the stream is up the poll is a cheap 304 that also finds a peer that
 * died without closing the socket; while it is down (or the server has no stream route) the poll is
 * the source. The source is up while the stream is open or the last poll answered; the feed says
 * when that changes, and gives up only when Ensign refuses the credential.
 */
import { Backoff } from './backoff.js';
import type { EnsignEndpoint } from './ensign-endpoint.js';
import { pollSnapshot, type PollOutcome } from './snapshot-poll.js';
import { SnapshotStream } from './snapshot-stream.js';

export interface FeedListener {
  /** A snapshot as received: a stream message's `result` or a polled document with its ETag. */
  snapshot(body: unknown, etag: string | undefined): void;
  /** The source is reachable (again). */
  up(): void;
  /** The source was lost; `reason` says how. */
  down(reason: string): void;
  /** Ensign refused the credential: nothing more is tried. */
  fatal(reason: string): void;
  warn(message: string): void;
}

export interface FeedOptions {
  endpoint: EnsignEndpoint;
  namespaceKey: string;
  /** The digest of the snapshot held, so neither the stream nor a poll sends it again. */
  digest: () => string | undefined;
  pollIntervalMs: number;
  /** How long a request, or a stream's answer head, may take. */
  requestTimeoutMs: number;
  reconnect: { minMs: number; initialMs: number; maxMs: number };
  /** How long a stream must have stayed up for reconnection to start over from the first step. */
  stableAfterMs: number;
  /** How often a server that has no stream route is asked again. */
  streamRetryMs: number;
}

/** How long after the stream opened without a snapshot held the snapshot is polled. */
const FIRST_POLL_AFTER_OPEN_MS = 1000;

/** Statuses of a server (or proxy) that has no such stream: polling takes over. */
const NO_STREAM = new Set([400, 404, 405, 406, 501]);

export class SnapshotFeed {
  private readonly backoff: Backoff;
  private stream: SnapshotStream | undefined;
  private streamUp = false;
  private streamOpenedAt = 0;
  /** The server has no stream route: only polls, the stream asked again now and then. */
  private streamMissing = false;
  private pollUp = false;
  private polling = false;
  /** A poll was refused with 403 (the snapshot's authorization) while the stream serves. */
  private pollRefused = false;
  private up = false;
  private stopped = false;
  private streamTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private badLines = 0;

  constructor(
    private readonly options: FeedOptions,
    private readonly listener: FeedListener,
  ) {
    this.backoff = new Backoff(options.reconnect);
  }

  start(): void {
    this.connect();
    this.schedulePoll(this.options.pollIntervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.streamTimer);
    clearTimeout(this.pollTimer);
    this.stream?.close();
    this.stream = undefined;
  }

  private connect(): void {
    if (this.stopped) return;
    const { endpoint, namespaceKey, requestTimeoutMs } = this.options;
    this.stream = new SnapshotStream(endpoint, namespaceKey, this.options.digest(), requestTimeoutMs, {
      opened: () => {
        this.streamMissing = false;
        this.streamUp = true;
        this.streamOpenedAt = Date.now();
        this.health('');
        // A namespace that does not exist keeps its stream quiet: the poll says so (an empty one).
        if (this.options.digest() === undefined) this.schedulePoll(FIRST_POLL_AFTER_OPEN_MS);
      },
      refused: (status, body) => this.streamRefused(status, body),
      message: (line) => this.message(line),
      closed: (error) => this.streamClosed(error),
    });
  }

  private message(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (this.badLines++ === 0) this.listener.warn(`a stream line is not JSON: ${line.slice(0, 120)}`);
      return;
    }
    const error = (value as { error?: { code?: number; message?: string } } | null)?.error;
    if (error !== undefined) {
      if (error.code === 16) this.fail(`the stream was refused: ${error.message ?? 'unauthenticated'}`);
      else this.listener.warn(`the stream sent an error: ${error.message ?? JSON.stringify(error)}`);
      return;
    }
    this.listener.snapshot(value, undefined);
  }

  private streamRefused(status: number, body: string): void {
    this.stream = undefined;
    if (status === 401 || status === 403) {
      this.fail(`the stream was refused with ${status}: ${body.slice(0, 200)}`);
      return;
    }
    if (NO_STREAM.has(status)) {
      if (!this.streamMissing) this.listener.warn(`no snapshot stream at ${this.options.endpoint.base} (HTTP ${status}): polling every ${this.options.pollIntervalMs} ms`);
      this.streamMissing = true;
      this.streamTimer = setTimeout(() => this.connect(), this.options.streamRetryMs).unref();
      this.pollNow();
      return;
    }
    this.retryStream(`the stream was answered with HTTP ${status}`);
  }

  private streamClosed(error: Error | undefined, pollAfter = true): void {
    this.stream = undefined;
    const wasUp = this.streamUp;
    this.streamUp = false;
    if (wasUp && Date.now() - this.streamOpenedAt >= this.options.stableAfterMs) this.backoff.reset();
    // What the last poll said is no longer news: only a poll from now on keeps the source up, and
    // one is made at once in case only the stream is cut (a proxy's idle timeout).
    if (wasUp) this.pollUp = false;
    this.retryStream(error?.message ?? 'the stream ended');
    if (wasUp && pollAfter) this.pollNow();
  }

  private retryStream(reason: string): void {
    if (this.stopped) return;
    this.health(reason);
    this.streamTimer = setTimeout(() => this.connect(), this.backoff.next()).unref();
  }

  private schedulePoll(delayMs: number): void {
    if (this.stopped || this.pollRefused) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.pollNow(), delayMs).unref();
  }

  /** Polls now, unless a poll is under way; the next one follows an interval after it. */
  private pollNow(): void {
    if (this.polling || this.stopped || this.pollRefused) return;
    clearTimeout(this.pollTimer);
    this.polling = true;
    const { endpoint, namespaceKey, requestTimeoutMs } = this.options;
    void pollSnapshot(endpoint, namespaceKey, this.options.digest(), requestTimeoutMs).then((outcome) => {
      this.polling = false;
      if (this.stopped) return;
      this.polled(outcome);
      this.schedulePoll(this.options.pollIntervalMs);
    });
  }

  private polled(outcome: PollOutcome): void {
    switch (outcome.kind) {
      case 'changed':
        this.pollUp = true;
        this.listener.snapshot(outcome.body, outcome.etag);
        this.health('');
        return;
      case 'unchanged':
        this.pollUp = true;
        this.health('');
        return;
      case 'refused':
        this.pollUp = false;
        if (outcome.status === 401 || (outcome.status === 403 && this.streamMissing)) {
          this.fail(`the snapshot was refused with ${outcome.status}: ${outcome.body.slice(0, 200)}`);
          return;
        }
        if (outcome.status === 403) {
          // `ensign server` authorizes the snapshot (flag and segment read) but not the stream.
          this.pollRefused = true;
          this.listener.warn('the snapshot was refused with 403 (authorization): following the stream only');
          return;
        }
        this.health(`the snapshot was answered with HTTP ${outcome.status}`);
        return;
      case 'failed':
        this.pollUp = false;
        if (this.streamUp) {
          // A stream that looks open while its server cannot be reached is dead: start it over.
          this.stream?.close();
          this.streamClosed(outcome.error, false);
        } else {
          this.health(outcome.error.message);
        }
    }
  }

  private health(reason: string): void {
    const up = this.streamUp || this.pollUp;
    if (up === this.up) return;
    this.up = up;
    if (up) this.listener.up();
    else this.listener.down(reason);
  }

  private fail(reason: string): void {
    this.stop();
    this.listener.fatal(reason);
  }
}
