/**
 * `audit.retention`: entries of the history older than the retention are deleted every hour (and
 * once at start). Deleting by age is idempotent, so several control planes may run it at once.
 */
import { PeriodicTask } from '@ensign/core';
import type { Logger } from 'pino';

/** What the retention needs of the store. */
export interface PrunableHistory {
  /** Deletes the entries written before `before`; resolves how many. */
  prune(before: Date): Promise<number>;
}

export interface HistoryRetentionOptions {
  history: PrunableHistory;
  /** How long an entry is kept; 0 keeps every entry. */
  retentionMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Time between runs; an hour when not set. */
  intervalMs?: number;
  now?: () => number;
}

const HOUR_MS = 3_600_000;

export class HistoryRetention {
  private readonly task: PeriodicTask;

  constructor(private readonly options: HistoryRetentionOptions) {
    this.task = new PeriodicTask(options.intervalMs ?? HOUR_MS, () => this.runOnce(), (err) =>
      options.logger.warn({ err }, 'pruning the change history failed; retrying next interval'),
    );
  }

  /** Prunes now (without holding up the caller) and then every interval; nothing when retention is 0. */
  start(): void {
    if (this.options.retentionMs > 0) this.task.start(true);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One run; resolves how many entries were deleted. */
  async runOnce(): Promise<number> {
    const now = this.options.now?.() ?? Date.now();
    const count = await this.options.history.prune(new Date(now - this.options.retentionMs));
    if (count > 0) this.options.logger.info({ count, retentionMs: this.options.retentionMs }, 'change history pruned');
    return count;
  }
}
