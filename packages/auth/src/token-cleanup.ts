/**
 * The background deletion of expired authentications. Expired ones are already refused on every
 * request; this keeps the table small. Deleting is idempotent, so several control planes may run
 * it at once on the same database.
 */
import { PeriodicTask } from '@ensign/core';
import type { AuthenticationStore } from './authentication-store.js';

/** The logger calls the job makes; a pino logger satisfies it. */
export interface CleanupLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface TokenCleanupOptions {
  store: Pick<AuthenticationStore, 'deleteExpired'>;
  /** Time between runs (`…cleanup.interval`). */
  intervalMs: number;
  /** How long an authentication stays stored after it expired (`…cleanup.grace_period`). */
  gracePeriodMs: number;
  logger: CleanupLogger;
  now?: () => number;
  /** Called after a run that deleted something (the live digest set is reloaded). */
  onDeleted?: (count: number) => void;
}

/** Runs `deleteExpired(now - grace)` every interval until stopped. */
export class TokenCleanup {
  private readonly task: PeriodicTask;

  constructor(private readonly options: TokenCleanupOptions) {
    this.task = new PeriodicTask(options.intervalMs, () => this.runOnce(), (err) =>
      options.logger.warn({ err }, 'deleting expired authentications failed; retrying next interval'),
    );
  }

  start(): void {
    this.task.start();
  }

  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One run; resolves how many authentications were deleted. */
  async runOnce(): Promise<number> {
    const now = this.options.now?.() ?? Date.now();
    const count = await this.options.store.deleteExpired(new Date(now - this.options.gracePeriodMs));
    if (count > 0) {
      this.options.logger.info({ count }, 'expired authentications deleted');
      this.options.onDeleted?.(count);
    }
    return count;
  }
}
