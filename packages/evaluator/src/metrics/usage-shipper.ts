/**
 * Ships what a process's `EvaluationTally` counted to the control plane, one `UsageBatch` per
 * flush period. The tally only ever grows, so the shipper remembers, per result count, how much of
 * it is already in a batch and ships the difference: the evaluation path is not touched at all.
 * A batch that could not be stored stays pending and is sent again under its id before newer ones.
 */
import { randomUUID } from 'node:crypto';
import { chunked, PendingBatches, PeriodicTask, type UsageCount, type UsageReceiver } from '@ensign/core';
import type { EvaluationTally, ResultCount } from './evaluation-tally.js';

/** The few logger methods the shipper uses; a pino logger satisfies it. */
export interface UsageLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface UsageShipperOptions {
  tally: Pick<EvaluationTally, 'flags'>;
  /** Stores a batch (directly, or over the bus to a control plane). */
  send: UsageReceiver;
  flushPeriodMs: number;
  logger?: UsageLogger | undefined;
  /** Start of every batch id; unique per process run, so ids never repeat across restarts. */
  processId?: string;
  /** Batches kept apart while the receiver is away; beyond that the untried ones are merged (at least 2). */
  maxPendingBatches?: number;
  /** Most counts in one batch, so a process evaluating many flags never sends a message too large for NATS. */
  maxCountsPerBatch?: number;
  /** How long `stop()` may spend on its last flush. */
  stopTimeoutMs?: number;
  now?: () => number;
}

export const DEFAULT_MAX_PENDING_BATCHES = 5;
export const DEFAULT_STOP_TIMEOUT_MS = 5000;
/** About 150 bytes of JSON a count: well under NATS's default 1 MB message. */
export const DEFAULT_MAX_COUNTS_PER_BATCH = 1000;

/**
 * Resolves true when `work` settles within `ms`, false otherwise. The timer holds the process: a
 * stopping process waits for its last batch, up to `ms`, even when nothing else is left running.
 */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class UsageShipper {
  readonly processId: string;
  /** How much of each result count is already in a batch. */
  private readonly shipped = new WeakMap<ResultCount, number>();
  private readonly pending: PendingBatches;
  private readonly task: PeriodicTask;
  private readonly now: () => number;
  private readonly maxCounts: number;
  private seq = 0;
  private flushing: Promise<void> = Promise.resolve();
  /** Failed sends in a row, for one log line when the receiver goes away and one when it is back. */
  private failures = 0;

  constructor(private readonly options: UsageShipperOptions) {
    this.processId = options.processId ?? randomUUID();
    this.maxCounts = Math.max(1, options.maxCountsPerBatch ?? DEFAULT_MAX_COUNTS_PER_BATCH);
    this.pending = new PendingBatches(Math.max(2, options.maxPendingBatches ?? DEFAULT_MAX_PENDING_BATCHES), this.maxCounts);
    this.now = options.now ?? Date.now;
    // A failed flush keeps its batch; nothing is left for the task to report.
    this.task = new PeriodicTask(options.flushPeriodMs, () => this.flush(), () => undefined);
  }

  start(): void {
    this.task.start();
  }

  /** Batches waiting to be stored and the counts they hold. */
  backlog(): { batches: number; counts: number } {
    return { batches: this.pending.length, counts: this.pending.countTotal() };
  }

  /** Takes what was counted since the last flush into a batch, then sends every pending batch in order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.flushOnce());
    return this.flushing;
  }

  /** Stops the timer and flushes once (bounded), so what the process counted is shipped before it exits. */
  async stop(): Promise<void> {
    await this.task.stop();
    const timeoutMs = this.options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
    const inTime = await within(this.flush(), timeoutMs);
    if (!inTime || this.pending.length > 0) {
      this.options.logger?.warn({ ...this.backlog(), timeoutMs }, 'evaluation counts not shipped before shutdown');
    }
  }

  private async flushOnce(): Promise<void> {
    const counts = this.takeCounts();
    const at = this.now();
    for (const chunk of chunked(counts, this.maxCounts)) this.pending.add({ id: this.nextId(), at, counts: chunk });
    const merged = this.pending.compact(() => this.nextId());
    if (merged > 0) {
      this.options.logger?.warn({ merged, ...this.backlog() }, `usage receiver unavailable: ${merged} waiting batches of evaluation counts merged into one`);
    }
    for (let next = this.pending.head(); next !== undefined; next = this.pending.head()) {
      next.tried = true;
      try {
        await this.options.send(next.batch);
      } catch (err) {
        if (this.failures++ === 0) this.options.logger?.warn({ err, ...this.backlog() }, 'evaluation counts could not be shipped; retrying every flush');
        return;
      }
      this.pending.shift();
      if (this.failures > 0) {
        this.options.logger?.info({ failedAttempts: this.failures }, 'evaluation counts shipped again');
        this.failures = 0;
      }
    }
  }

  /** What each result count gained since it was last taken. */
  private takeCounts(): UsageCount[] {
    const counts: UsageCount[] = [];
    for (const [namespaceKey, flagKey, tally] of this.options.tally.flags()) {
      for (const result of tally.results.values()) {
        const taken = this.shipped.get(result) ?? 0;
        if (result.count <= taken) continue;
        counts.push({ namespaceKey, flagKey, value: result.labels.value, reason: result.labels.reason, count: result.count - taken });
        this.shipped.set(result, result.count);
      }
    }
    return counts;
  }

  private nextId(): string {
    return `${this.processId}-${++this.seq}`;
  }
}
