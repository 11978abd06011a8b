/**
 * Sends what the providers of one Ensign (one base URL and credential) counted to its usage route
 * (`POST /internal/v1/usage`), one `UsageBatch` per flush period for all their namespaces. A batch
 * that could not be sent stays queued and is sent again under its id (the server stores an id
 * once); while Ensign is away the batches behind the oldest are merged, so memory stays bounded by
 * the distinct (flag, value, reason) counts. A server that refuses counts for good (no such route,
 * analytics off, the credential refused) is told nothing more.
 */
import { randomUUID } from 'node:crypto';
import { chunked, PendingBatches, PeriodicTask, type UsageBatch, type UsageCount } from '@ensign/core';
import type { Logger } from '@openfeature/server-sdk';
import { type EnsignEndpoint, sendRequest } from '../source/ensign-endpoint.js';

export interface UsageShipperOptions {
  endpoint: EnsignEndpoint;
  flushIntervalMs: number;
  requestTimeoutMs: number;
  /** Batches kept apart while Ensign is away before the untried ones are merged. */
  maxPendingBatches: number;
  maxCountsPerBatch: number;
  logger: Logger;
}

export const USAGE_PATH = '/internal/v1/usage';

/** Answers that say the server will never take counts from this client. */
const NEVER = new Set([401, 403, 404, 405, 501]);

export class UsageShipper {
  private readonly sources = new Set<() => UsageCount[]>();
  /** The last counts of sources removed since the last flush. */
  private leftover: UsageCount[] = [];
  private readonly pending: PendingBatches;
  private readonly task: PeriodicTask;
  private readonly processId = randomUUID();
  private seq = 0;
  private flushing: Promise<void> = Promise.resolve();
  private refused = false;
  private failures = 0;

  constructor(private readonly options: UsageShipperOptions) {
    this.pending = new PendingBatches(Math.max(2, options.maxPendingBatches), options.maxCountsPerBatch);
    this.task = new PeriodicTask(options.flushIntervalMs, () => this.flush(), () => undefined);
    this.task.start();
  }

  /** Takes counts from `take` at every flush until the returned function is called, which takes its last. */
  add(take: () => UsageCount[]): () => void {
    this.sources.add(take);
    return () => {
      if (this.sources.delete(take)) this.leftover.push(...take());
    };
  }

  /** Batches waiting to be stored and the counts they hold. */
  backlog(): { batches: number; counts: number } {
    return { batches: this.pending.length, counts: this.pending.countTotal() };
  }

  /** Takes every source's counts into a batch, then sends the waiting batches in order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.flushOnce());
    return this.flushing;
  }

  /** Stops flushing on time and sends what is left, within `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    await this.task.stop();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  private async flushOnce(): Promise<void> {
    const counts = [...this.leftover, ...[...this.sources].flatMap((take) => take())];
    this.leftover = [];
    if (this.refused) return;
    const at = Date.now();
    for (const chunk of chunked(counts, this.options.maxCountsPerBatch)) this.pending.add({ id: this.nextId(), at, counts: chunk });
    this.pending.compact(() => this.nextId());
    for (let next = this.pending.head(); next !== undefined; next = this.pending.head()) {
      next.tried = true;
      const outcome = await this.send(next.batch);
      if (outcome === 'retry') return;
      this.pending.shift();
      if (outcome === 'never') {
        this.refused = true;
        while (this.pending.length > 0) this.pending.shift();
        return;
      }
    }
  }

  private async send(batch: UsageBatch): Promise<'stored' | 'dropped' | 'retry' | 'never'> {
    const { endpoint, requestTimeoutMs, logger } = this.options;
    let status: number;
    let body: string;
    try {
      ({ status, body } = await sendRequest(endpoint, USAGE_PATH, { method: 'POST', body: JSON.stringify(batch), timeoutMs: requestTimeoutMs }));
    } catch (err) {
      if (this.failures++ === 0) logger.warn(`evaluation counts not sent to ${endpoint.base}, kept and sent again: ${(err as Error).message}`);
      return 'retry';
    }
    if (status >= 200 && status < 300) {
      if (this.failures > 0) logger.info(`evaluation counts sent to ${endpoint.base} again`);
      this.failures = 0;
      return 'stored';
    }
    if (NEVER.has(status)) {
      logger.warn(`${endpoint.base} does not take evaluation counts (HTTP ${status}: ${body.slice(0, 200)}); they are no longer sent`);
      return 'never';
    }
    if (status === 400 || status === 413) {
      logger.warn(`${endpoint.base} refused a batch of evaluation counts (HTTP ${status}: ${body.slice(0, 200)}); it is dropped`);
      return 'dropped';
    }
    if (this.failures++ === 0) logger.warn(`evaluation counts not stored by ${endpoint.base} (HTTP ${status}), kept and sent again`);
    return 'retry';
  }

  private nextId(): string {
    return `${this.processId}-${++this.seq}`;
  }
}
