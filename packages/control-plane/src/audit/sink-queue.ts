/**
 * One sink's queue: events are delivered one at a time in the order they were pushed (commit
 * order), each retried with backoff until the sink's budget is spent. The queue is bounded: past
 * the limit the oldest waiting events are dropped, counted and reported, one log line per burst.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { AuditEvent } from './audit-event.js';
import type { SinkMetrics } from './audit-metrics.js';
import { type AuditSink, UndeliverableError } from './audit-sink.js';
import { nextBackoff } from './retry-backoff.js';

/** An event with what the logs name it by. */
export interface AuditItem {
  event: AuditEvent;
  namespaceKey: string;
  key: string;
}

/** Drops within this window after the first are reported together. */
export const DROP_REPORT_MS = 1_000;

export interface SinkQueueOptions {
  sink: AuditSink;
  limit: number;
  logger: Logger;
  metrics: SinkMetrics;
  /** Aborts deliveries and waits at shutdown. */
  signal: AbortSignal;
  random?: () => number;
}

export class SinkQueue {
  private readonly items: AuditItem[] = [];
  private current: AuditItem | undefined;
  private running = false;
  private idleWaiters: Array<() => void> = [];
  private droppedInBurst = 0;
  private dropReport: NodeJS.Timeout | undefined;

  constructor(private readonly o: SinkQueueOptions) {}

  /** Events not delivered or given up yet, the one in delivery included. */
  get length(): number {
    return this.items.length + (this.current === undefined ? 0 : 1);
  }

  /** Queues events behind those waiting and starts delivering on the next turn of the event loop. */
  push(items: readonly AuditItem[]): void {
    if (this.o.signal.aborted) return;
    this.items.push(...items);
    const over = this.items.length - this.o.limit;
    if (over > 0) this.drop(this.items.splice(0, over).length);
    this.o.metrics.queueLength(this.length);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.run());
    }
  }

  /** Resolves once every event pushed so far is delivered or given up. */
  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  /** After the signal aborted: what is left is dropped, counted and logged; returns how many. */
  stop(): number {
    const left = this.length;
    this.items.length = 0;
    this.current = undefined;
    this.reportDrops();
    this.o.metrics.queueLength(0);
    if (left > 0) {
      this.o.metrics.count('dropped', left);
      this.o.logger.warn({ sink: this.o.sink.name, dropped: left }, 'audit events not delivered before shutdown');
    }
    return left;
  }

  private async run(): Promise<void> {
    while (this.items.length > 0 && !this.o.signal.aborted) {
      const item = this.items.shift() as AuditItem;
      this.current = item;
      await this.deliver(item);
      if (this.current === item) this.current = undefined;
      this.o.metrics.queueLength(this.length);
    }
    this.running = false;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async deliver(item: AuditItem): Promise<void> {
    const { sink, signal, metrics } = this.o;
    let spent = 0;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await sink.deliver(item.event, signal);
        metrics.count('delivered');
        return;
      } catch (err) {
        // At shutdown what is left is counted by `stop`.
        if (signal.aborted) return;
        const wait = err instanceof UndeliverableError ? undefined : nextBackoff(attempt, spent, sink.maxBackoffMs, this.o.random);
        if (wait === undefined) {
          metrics.count('failed');
          this.o.logger.error(
            { sink: sink.name, type: item.event.type, action: item.event.action, namespaceKey: item.namespaceKey, key: item.key, revision: item.event.ensign?.revision, attempts: attempt + 1, err: (err as Error).message },
            'audit event not delivered; given up',
          );
          return;
        }
        metrics.count('retried');
        this.o.logger.debug({ sink: sink.name, attempt: attempt + 1, waitMs: wait, err: (err as Error).message }, 'audit delivery failed; retrying');
        spent += wait;
        await sleep(wait, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  private drop(n: number): void {
    this.o.metrics.count('dropped', n);
    this.droppedInBurst += n;
    if (this.dropReport === undefined) {
      this.dropReport = setTimeout(() => this.reportDrops(), DROP_REPORT_MS);
      this.dropReport.unref();
    }
  }

  private reportDrops(): void {
    clearTimeout(this.dropReport);
    this.dropReport = undefined;
    if (this.droppedInBurst === 0) return;
    this.o.logger.warn({ sink: this.o.sink.name, dropped: this.droppedInBurst, limit: this.o.limit }, 'audit queue full: dropped the oldest waiting events');
    this.droppedInBurst = 0;
  }
}
