/**
 * Takes each flag step (a schedule, a window edge, a ramp step) when its time comes: the write
 * records it in the history and the audit sinks, and the pipeline publishes the flag, so Flipt's
 * client-side snapshots and the SDK streams follow. Evaluators do not wait for this: their
 * snapshots carry the steps, and they flip on their own clock. Steps missed while no control plane
 * ran are taken at start, in order, and marked as taken late. With several control planes each step
 * is claimed by exactly one.
 */
import type { DueStep } from '@ensign/store';
import type { Logger } from 'pino';

/** What the runner needs of the store. */
export interface StepStore {
  due(now: string, limit?: number): Promise<DueStep[]>;
  nextAt(): Promise<string | undefined>;
  apply(step: DueStep): Promise<boolean>;
}

export interface StepRunnerOptions {
  steps: StepStore;
  logger: Logger;
  /** The longest wait between two looks at the store: steps set through other servers are found within it. */
  pollMs: number;
  now?: () => number;
}

/** Steps taken per look; more wait for the next look, which comes at once. */
const BATCH = 100;

export class StepRunner {
  /** Steps this process took, and looks that failed. */
  readonly counts = { applied: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;
  private failing = false;
  private readonly now: () => number;

  constructor(private readonly options: StepRunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Takes what is due now (missed steps included), then follows the clock. */
  start(): Promise<void> {
    this.stopped = false;
    return this.runNow();
  }

  /** A step may have been set or moved here: look again now rather than at the next poll. */
  wake(): void {
    if (!this.stopped) void this.runNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One look: takes every step due, then waits for the next one (at most `pollMs`). */
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
    const { steps, logger, pollMs } = this.options;
    for (;;) {
      const due = await steps.due(new Date(this.now()).toISOString(), BATCH);
      for (const step of due) {
        if (this.stopped) return pollMs;
        if (await steps.apply(step)) {
          this.counts.applied++;
          logger.info({ namespace: step.namespaceKey, flag: step.flagKey, step: step.id, at: step.at }, 'flag step taken');
        }
      }
      if (due.length < BATCH) break;
    }
    if (this.failing) {
      this.failing = false;
      logger.info('flag steps are taken again');
    }
    const next = await steps.nextAt();
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
    this.options.logger.warn({ err }, 'taking flag steps failed; they are taken once the database answers');
  }
}
