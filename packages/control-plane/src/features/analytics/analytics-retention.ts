/**
 * Evaluation counts are kept per minute for `minuteRetentionMs` (the analytics series) and per
 * hour, with the ids of the batches stored, for `hourRetentionMs` (usage and staleness). Pruned
 * every hour and once at start; deleting by age is idempotent, so several control planes may run it.
 */
import { PeriodicTask } from '@ensign/core';
import type { UsagePruned } from '@ensign/store';
import type { Logger } from 'pino';

/** What the retention needs of the store. */
export interface PrunableUsage {
  /** Deletes minute counts before `minuteBefore`, hour counts and batch ids before `hourBefore`. */
  prune(minuteBefore: Date, hourBefore: Date): Promise<UsagePruned>;
}

export interface AnalyticsRetentionOptions {
  usage: PrunableUsage;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** 7 days when not set; 0 keeps every minute. */
  minuteRetentionMs?: number;
  /**
   * 90 days when not set; 0 keeps every hour and batch id. A batch id is forgotten with its hour,
   * so a batch sent again after this long would count again.
   */
  hourRetentionMs?: number;
  /** Time between runs; an hour when not set. */
  intervalMs?: number;
  now?: () => number;
}

const HOUR_MS = 3_600_000;
export const DEFAULT_MINUTE_RETENTION_MS = 7 * 24 * HOUR_MS;
export const DEFAULT_HOUR_RETENTION_MS = 90 * 24 * HOUR_MS;

export class AnalyticsRetention {
  private readonly task: PeriodicTask;

  constructor(private readonly options: AnalyticsRetentionOptions) {
    this.task = new PeriodicTask(options.intervalMs ?? HOUR_MS, () => this.runOnce(), (err) =>
      options.logger.warn({ err }, 'pruning the evaluation counts failed; retrying next interval'),
    );
  }

  /** Prunes now (without holding up the caller) and then every interval. */
  start(): void {
    this.task.start(true);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One run; resolves how many rows of each kind were deleted. */
  async runOnce(): Promise<UsagePruned> {
    const now = this.options.now?.() ?? Date.now();
    const minuteRetentionMs = this.options.minuteRetentionMs ?? DEFAULT_MINUTE_RETENTION_MS;
    const hourRetentionMs = this.options.hourRetentionMs ?? DEFAULT_HOUR_RETENTION_MS;
    // A cut-off at the epoch deletes nothing.
    const cutoff = (retentionMs: number) => new Date(retentionMs > 0 ? now - retentionMs : 0);
    const pruned = await this.options.usage.prune(cutoff(minuteRetentionMs), cutoff(hourRetentionMs));
    if (pruned.minutes + pruned.hours + pruned.batches + pruned.lasts > 0) this.options.logger.info({ ...pruned, minuteRetentionMs, hourRetentionMs }, 'evaluation counts pruned');
    return pruned;
  }
}
