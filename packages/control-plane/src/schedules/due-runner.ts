/**
 * Does timed work when its time comes: looks for what is due (missed items included, oldest
 * first), does each, then sleeps until the next item is due or `pollMs` passes, whichever is first,
 * so items set through other servers on the same database are found within a poll. A store outage
 * is logged once and retried at the next poll.
 */
import type { Logger } from 'pino';

/** Timed work a store holds. */
export interface DueWork<T> {
  /** Items due by `now`, oldest first, at most `limit`. */
  due(now: string, limit: number): Promise<T[]>;
  /** When the next pending item is due; undefined when none is pending. */
  nextAt(): Promise<string | undefined>;
  /** Does the item; false when it was not done (another server took it, or it was put off). */
  apply(item: T): Promise<boolean>;
}

/** What a runner logs, in its own words. */
export interface DueRunnerMessages<T> {
  /** Logged for each item done, with these fields. */
  done: string;
  fields: (item: T) => Record<string, unknown>;
  /** Logged once when looking fails, and once when it works again. */
  failing: string;
  recovered: string;
}

export interface DueRunnerOptions<T> {
  work: DueWork<T>;
  logger: Logger;
  messages: DueRunnerMessages<T>;
  /** The longest wait between two looks at the store. */
  pollMs: number;
  now?: () => number;
}

/** Items done per look; more wait for the next look, which comes at once. */
const BATCH = 100;

export class DueRunner<T> {
  /** Items this process did, and looks that failed. */
  readonly counts = { applied: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;
  private failing = false;
  private readonly now: () => number;

  constructor(private readonly options: DueRunnerOptions<T>) {
    this.now = options.now ?? Date.now;
  }

  /** Does what is due now (missed items included), then follows the clock. */
  start(): Promise<void> {
    this.stopped = false;
    return this.runNow();
  }

  /** An item may have been set or moved here: look again now rather than at the next poll. */
  wake(): void {
    if (!this.stopped) void this.runNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One look: does every item due, then waits for the next one (at most `pollMs`). */
  private runNow(): Promise<void> {
    clearTimeout(this.timer);
    this.running = this.running.then(() => this.look()).then(
      (delay) => this.arm(delay),
      (err: unknown) => {
        this.failed(err);
        this.arm(this.options.pollMs);
      },
    );
    return this.running;
  }

  private async look(): Promise<number> {
    const { work, logger, pollMs, messages } = this.options;
    for (;;) {
      const due = await work.due(new Date(this.now()).toISOString(), BATCH);
      for (const item of due) {
        if (this.stopped) return pollMs;
        if (await work.apply(item)) {
          this.counts.applied++;
          logger.info(messages.fields(item), messages.done);
        }
      }
      if (due.length < BATCH) break;
    }
    if (this.failing) {
      this.failing = false;
      logger.info(messages.recovered);
    }
    const next = await work.nextAt();
    if (next === undefined) return pollMs;
    return Math.max(0, Math.min(pollMs, Date.parse(next) - this.now()));
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runNow(), delayMs);
    this.timer.unref();
  }

  /** An outage is logged once, not every look. */
  private failed(err: unknown): void {
    this.counts.failed++;
    if (this.failing) return;
    this.failing = true;
    this.options.logger.warn({ err }, this.options.messages.failing);
  }
}
