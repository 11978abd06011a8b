/**
 * Every open snapshot stream of a process, by namespace. A change of a held namespace is sent to
 * its streams as one frame encoded once; a stream is sent a state only when its digest differs from
 * the last one it was sent. A stream whose socket has not taken its last frame is not written to:
 * it is marked behind and sent the current state once it drains, so it never holds more than one
 * frame; one that stays behind for `slowAfterMs` is dropped, logged and counted. A streamed
 * namespace whose flags have schedules, windows or ramps is sent again when its next boundary
 * passes, on this process's clock, so its streams follow even when no new version arrives.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type EvaluationEnv, type HashMode, nextBoundary } from '@ensign/engine';
import type { Logger } from 'pino';
import { gatedSnapshot } from '../snapshot/gated-snapshot.js';
import type { SnapshotGate } from '../snapshot/server-version.js';
import { boundariesOf } from '../snapshot/snapshot-phase.js';
import type { SnapshotSource } from '../snapshot-source.js';
import { contentTypeOf, type StreamFraming, snapshotFrame } from './stream-frames.js';

/** What a source must offer to be streamed from. */
export type StreamedSource = SnapshotSource & Required<Pick<SnapshotSource, 'onChange' | 'pin' | 'unpin'>>;

/** How long a stream may stay behind before it is dropped, unless set (Flipt waits 15 s per subscriber). */
export const DEFAULT_SLOW_AFTER_MS = 15_000;

/** The longest delay a timer takes; a boundary further away is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One stream being opened. */
export interface StreamRequest {
  key: string;
  gate: SnapshotGate;
  framing: StreamFraming;
  /** The digest the client holds: the current state is not sent again when it matches. */
  digest: string | undefined;
}

/** Running totals, read by `/metrics`. */
export interface StreamCounts {
  open: Record<StreamFraming, number>;
  messages: Record<StreamFraming, number>;
  /** Streams dropped for staying behind. */
  dropped: number;
}

interface Watcher {
  readonly res: ServerResponse;
  /** Frames are written on the socket itself, past the response's per-write bookkeeping. */
  readonly socket: Socket;
  /** Whether the response is chunked (HTTP/1.1), so frames go as chunks. */
  readonly chunked: boolean;
  readonly key: string;
  readonly gate: SnapshotGate;
  readonly framing: StreamFraming;
  lastSent: string | undefined;
  /** A state newer than the last one sent waits for the socket to drain. */
  behind: boolean;
  slowTimer: NodeJS.Timeout | undefined;
}

export interface SnapshotStreamsOptions {
  source: StreamedSource;
  logger: Logger;
  slowAfterMs?: number;
  /** The clock boundaries are followed on; `Date.now` when not set. */
  clock?: EvaluationEnv;
  /** The hash announced to Ensign's own clients (`?format=ensign`). */
  hash?: HashMode;
}

export class SnapshotStreams {
  private readonly byNamespace = new Map<string, Set<Watcher>>();
  /** Per streamed namespace with a boundary ahead: the timer that sends its state when it passes. */
  private readonly boundaryTimers = new Map<string, NodeJS.Timeout>();
  private readonly source: StreamedSource;
  private readonly slowAfterMs: number;
  private readonly clock: EvaluationEnv;
  readonly counts: StreamCounts = { open: { ndjson: 0, sse: 0 }, messages: { ndjson: 0, sse: 0 }, dropped: 0 };

  constructor(private readonly options: SnapshotStreamsOptions) {
    this.source = options.source;
    this.slowAfterMs = options.slowAfterMs ?? DEFAULT_SLOW_AFTER_MS;
    this.clock = options.clock ?? { now: Date.now };
    this.source.onChange((key) => this.changed(key));
  }

  /** Starts streaming `request.key` on `res`: headers at once, then the current state unless the client holds it. */
  open(res: ServerResponse, request: StreamRequest): void {
    res.writeHead(200, { 'Content-Type': contentTypeOf(request.framing), 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    const { socket } = res;
    // A HEAD has its answer in the headers; a response without its socket has been closed already.
    if (res.req.method === 'HEAD' || socket === null) {
      res.end();
      return;
    }
    // Keep-alive lives at the TCP level: a line that is not a message would break Flipt's SDKs.
    socket.setKeepAlive(true, 30_000);
    const watcher: Watcher = {
      res,
      socket,
      chunked: res.chunkedEncoding,
      key: request.key,
      gate: request.gate,
      framing: request.framing,
      lastSent: request.digest,
      behind: false,
      slowTimer: undefined,
    };
    let watchers = this.byNamespace.get(request.key);
    if (watchers === undefined) {
      watchers = new Set();
      this.byNamespace.set(request.key, watchers);
      this.source.pin(request.key);
      this.followBoundaries(request.key);
    }
    watchers.add(watcher);
    this.counts.open[watcher.framing]++;
    socket.on('drain', () => this.drained(watcher));
    res.once('close', () => this.closed(watcher));
    this.send(watcher);
  }

  /** Ends every stream (shutdown): clients reconnect elsewhere. */
  closeAll(): void {
    for (const watchers of this.byNamespace.values()) for (const watcher of watchers) watcher.res.end();
    for (const timer of this.boundaryTimers.values()) clearTimeout(timer);
    this.boundaryTimers.clear();
  }

  /** Streams open now. */
  get size(): number {
    return this.counts.open.ndjson + this.counts.open.sse;
  }

  private changed(key: string): void {
    const watchers = this.byNamespace.get(key);
    if (watchers === undefined) return;
    for (const watcher of watchers) this.send(watcher);
    this.followBoundaries(key);
  }

  /** Sets the namespace's timer for its next boundary, if the version held has one ahead. */
  private followBoundaries(key: string): void {
    clearTimeout(this.boundaryTimers.get(key));
    this.boundaryTimers.delete(key);
    const held = this.source.get(key);
    if (held === undefined) return;
    const boundaries = boundariesOf(held.snapshot);
    if (boundaries.length === 0) return;
    const now = this.clock.now();
    const next = nextBoundary(boundaries, now);
    if (next === undefined) return;
    // A millisecond past the boundary, so the clock has reached it when the timer fires; a timer
    // that fires early anyway sends nothing new and is set again.
    const timer = setTimeout(() => this.changed(key), Math.min(next - now + 1, MAX_TIMER_MS)).unref();
    this.boundaryTimers.set(key, timer);
  }

  private send(watcher: Watcher): void {
    // A namespace not held (deleted, or not created yet) is not announced: its streams stay quiet.
    const held = this.source.get(watcher.key);
    if (held === undefined) return;
    const served = gatedSnapshot(held.snapshot, watcher.gate, this.clock, this.options.hash);
    if (served.etag === watcher.lastSent) return;
    const { socket } = watcher;
    if (socket.writableNeedDrain) {
      watcher.behind = true;
      watcher.slowTimer ??= setTimeout(() => this.drop(watcher), this.slowAfterMs).unref();
      return;
    }
    const frame = snapshotFrame(served, watcher.framing);
    socket.write(watcher.chunked ? frame.chunk : frame.bytes);
    watcher.lastSent = served.etag;
    this.counts.messages[watcher.framing]++;
  }

  private drained(watcher: Watcher): void {
    clearTimeout(watcher.slowTimer);
    watcher.slowTimer = undefined;
    if (!watcher.behind) return;
    watcher.behind = false;
    this.send(watcher);
  }

  private drop(watcher: Watcher): void {
    this.counts.dropped++;
    this.options.logger.warn({ namespace: watcher.key, slowAfterMs: this.slowAfterMs, remote: watcher.res.socket?.remoteAddress }, 'snapshot stream dropped: the client did not take its messages');
    watcher.res.destroy();
  }

  private closed(watcher: Watcher): void {
    clearTimeout(watcher.slowTimer);
    const watchers = this.byNamespace.get(watcher.key);
    if (watchers === undefined || !watchers.delete(watcher)) return;
    this.counts.open[watcher.framing]--;
    if (watchers.size > 0) return;
    this.byNamespace.delete(watcher.key);
    clearTimeout(this.boundaryTimers.get(watcher.key));
    this.boundaryTimers.delete(watcher.key);
    this.source.unpin(watcher.key);
  }
}
