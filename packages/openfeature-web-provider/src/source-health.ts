/**
 * What the provider tells the SDK about its source, after `initialize` has settled: READY while
 * the change feed is open; once it is lost, STALE after a grace period and ERROR after a longer
 * one (answers keep coming from the last snapshot); READY again when the feed is back. A lost feed
 * that comes back within the grace period is never announced. FATAL ends it all.
 */
export type HealthEvent = 'ready' | 'stale' | 'error';

type State = 'starting' | 'ready' | 'stale' | 'error' | 'fatal';

export class SourceHealth {
  private state: State = 'starting';
  private timers: Array<ReturnType<typeof setTimeout>> = [];

  constructor(
    private readonly staleAfterMs: number,
    private readonly errorAfterMs: number,
    private readonly emit: (event: HealthEvent, message: string) => void,
  ) {}

  /** `initialize` resolved: the SDK itself announces READY. */
  initialized(): void {
    if (this.state === 'starting') this.state = 'ready';
  }

  /** `initialize` failed without a snapshot: the SDK itself announces ERROR. */
  initializationFailed(): void {
    if (this.state === 'starting') this.state = 'error';
  }

  current(): void {
    this.clearTimers();
    if (this.state !== 'stale' && this.state !== 'error') return;
    this.state = 'ready';
    this.emit('ready', 'the change stream is back');
  }

  lost(message: string): void {
    if (this.state !== 'ready' || this.timers.length > 0) return;
    this.timers.push(
      setTimeout(() => this.enter('stale', message), this.staleAfterMs),
      setTimeout(() => this.enter('error', message), this.errorAfterMs),
    );
  }

  fatal(): void {
    this.clearTimers();
    this.state = 'fatal';
  }

  close(): void {
    this.clearTimers();
  }

  private enter(state: 'stale' | 'error', message: string): void {
    // STALE after ERROR would tell the SDK things got better.
    if (state === 'stale' && this.state === 'error') return;
    this.state = state;
    this.emit(state, message);
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }
}
