/**
 * A background job run every interval, never two runs at once, never keeping the process alive;
 * a failed run is reported and the next interval tries again.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onFailure: (err: unknown) => void,
  ) {}

  /** Schedules the first run one interval from now, or at once with `immediately`. */
  start(immediately = false): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(immediately ? 0 : this.intervalMs);
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .catch(this.onFailure)
        .finally(() => this.schedule());
    }, delayMs);
    this.timer.unref();
  }
}
