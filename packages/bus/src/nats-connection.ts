import { connect, DebugEvents, Events } from 'nats';
import type { NatsConnection } from 'nats';
import type { BusLogger } from './bus-logger.js';

/** What a bus reports of its NATS connection. */
export type BusStatus = 'connected' | 'reconnecting' | 'closed';

export interface ConnectionOptions {
  /** One server URL or several, comma-separated (members of one cluster). */
  url: string;
  name?: string | undefined;
  /** Delay between connection attempts, first connection included. */
  reconnectTimeWaitMs?: number | undefined;
  logger?: BusLogger | undefined;
}

/**
 * How long a JetStream request (a put, a get, a watch's consumer) may go unanswered. Shorter than
 * nats.js's 5 s: in a cluster that lost a server, nats-server 2.9 may still place a new consumer
 * on the dead one and never answer, and the next attempt lands on a live one; writes and watches retry.
 */
export const JETSTREAM_TIMEOUT_MS = 2000;

/** The servers of a comma-separated `nats.url`, as nats.js takes them. */
export function serversOf(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

/** `open()` once and share its outcome; a failed open is forgotten, so the next call tries again. */
export function openedOnce<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | undefined;
  return () => {
    opened ??= open();
    opened.catch(() => {
      opened = undefined;
    });
    return opened;
  };
}

/**
 * A NATS connection that heals by itself: the first connection is retried until it succeeds
 * (a process may start while NATS is down), later outages reconnect without limit.
 */
export class HealingConnection {
  private current: NatsConnection | undefined;
  private state: BusStatus = 'reconnecting';
  private closing = false;
  private wake: (() => void) | undefined;
  private readonly listeners = new Set<(status: BusStatus) => void>();
  private readonly clusterListeners = new Set<() => void>();
  /** When the connection was lost; undefined while connected. */
  private lostAt: number | undefined;
  /** Resolves with the connection once the first attempt succeeds; rejects when closed first. */
  readonly ready: Promise<NatsConnection>;

  constructor(private readonly options: ConnectionOptions) {
    this.ready = this.connectFirst();
    this.ready.catch(() => undefined);
  }

  status(): BusStatus {
    return this.state;
  }

  /** Hears every change of status, the first connection included; returns how to stop hearing. */
  onStatus(listener: (status: BusStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` each time the connection is back after a loss (not on the first connection). */
  onReconnect(listener: () => void): () => void {
    let lost = false;
    return this.onStatus((status) => {
      if (status === 'reconnecting') lost = true;
      else if (status === 'connected' && lost) {
        lost = false;
        listener();
      }
    });
  }

  /**
   * Calls `listener` whenever the server announces that its cluster changed (a server left or
   * joined): an ephemeral consumer lives on one server and may have gone with it, without a word.
   */
  onClusterChange(listener: () => void): () => void {
    this.clusterListeners.add(listener);
    return () => this.clusterListeners.delete(listener);
  }

  private setState(next: BusStatus): void {
    if (this.state === next) return;
    this.state = next;
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch (err) {
        this.options.logger?.error({ err }, 'NATS status listener failed');
      }
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.wake?.();
    const nc = this.current;
    // Every publish is awaited by its caller, so there is nothing to drain.
    if (nc !== undefined) await nc.close();
    this.setState('closed');
  }

  private async connectFirst(): Promise<NatsConnection> {
    const wait = this.options.reconnectTimeWaitMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      if (this.closing) throw new Error('bus closed before connecting');
      try {
        const nc = await connect({
          servers: serversOf(this.options.url),
          ...(this.options.name === undefined ? {} : { name: this.options.name }),
          maxReconnectAttempts: -1,
          reconnectTimeWait: wait,
          timeout: 2000,
          // A path that drops packets without closing the socket is found stale in 20-30 s, not the default 4 minutes.
          pingInterval: 10_000,
          maxPingOut: 2,
        });
        if (this.closing) {
          await nc.close();
          throw new Error('bus closed before connecting');
        }
        this.current = nc;
        this.follow(nc);
        this.setState('connected');
        return nc;
      } catch (err) {
        if (this.closing) throw err;
        if (attempt === 1 || attempt % 40 === 0) {
          this.options.logger?.warn({ err, url: this.options.url, attempt }, 'NATS unreachable, retrying');
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /** Keeps `state` in step with the connection's status events, with one log line per loss and per return. */
  private follow(nc: NatsConnection): void {
    const { url, logger } = this.options;
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === Events.Disconnect || s.type === DebugEvents.Reconnecting) {
          if (this.state !== 'connected') continue;
          this.lostAt = Date.now();
          logger?.warn({ url }, 'NATS disconnected, reconnecting');
          this.setState('reconnecting');
        } else if (s.type === Events.Reconnect) {
          const downMs = this.lostAt === undefined ? undefined : Date.now() - this.lostAt;
          this.lostAt = undefined;
          logger?.info({ url, downMs }, `NATS reconnected after ${downMs ?? '?'} ms down`);
          this.setState('connected');
        } else if (s.type === Events.Update && this.state === 'connected') {
          for (const listener of this.clusterListeners) listener();
        }
      }
    })();
    void nc.closed().then(() => this.setState('closed'));
  }
}
