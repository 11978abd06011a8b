/**
 * flagd's lifecycle over Ensign's source. Holding a snapshot, the provider is READY while the
 * source is up; once the source has been away for `staleAfterMs` it is STALE, after `errorAfterMs`
 * ERROR, and READY again as soon as the source is back. Answers keep coming from the last snapshot
 * meanwhile: the states only say how old it may be. A refused credential is FATAL, for good.
 * Before the first snapshot the provider is NOT_READY; if `initialize` gave up waiting, ERROR
 * until one arrives.
 */
export type ProviderState = 'NOT_READY' | 'READY' | 'STALE' | 'ERROR' | 'FATAL';

export interface LifecycleEvents {
  ready(): void;
  stale(reason: string): void;
  error(reason: string): void;
}

export interface LifecycleOptions {
  staleAfterMs: number;
  errorAfterMs: number;
}

export class ProviderLifecycle {
  private current: ProviderState = 'NOT_READY';
  private holding = false;
  private sourceUp = false;
  private lostReason = 'Ensign has not been reached yet';
  private staleTimer: NodeJS.Timeout | undefined;
  private errorTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: LifecycleOptions,
    private readonly events: LifecycleEvents,
  ) {}

  get state(): ProviderState {
    return this.current;
  }

  /** Starts counting the source's absence (it has not been reached yet). */
  start(): void {
    this.lost(this.lostReason);
  }

  /**
   * A snapshot is held. The first one makes the provider READY: said by the SDK when `initialize`
   * resolves with it (`announce` false), by a READY event when it comes after `initialize` gave up.
   */
  holds(announce: boolean): void {
    if (this.holding || this.current === 'FATAL') return;
    this.holding = true;
    this.set('READY', announce);
    // Held from a bootstrap while the source is away: its timers run from the start.
    if (!this.sourceUp) this.armTimers();
  }

  /** `initialize` gave up waiting for a first snapshot (the SDK reports the error). */
  initFailed(): void {
    if (this.current === 'NOT_READY') this.current = 'ERROR';
  }

  up(): void {
    this.sourceUp = true;
    this.clearTimers();
    if (this.holding && (this.current === 'STALE' || this.current === 'ERROR')) this.set('READY', true);
  }

  down(reason: string): void {
    this.sourceUp = false;
    this.lost(reason);
  }

  fatal(): void {
    this.clearTimers();
    this.current = 'FATAL';
  }

  stop(): void {
    this.clearTimers();
  }

  private lost(reason: string): void {
    this.lostReason = reason;
    if (this.holding && this.staleTimer === undefined && this.errorTimer === undefined) this.armTimers();
  }

  private armTimers(): void {
    this.clearTimers();
    this.staleTimer = setTimeout(() => {
      if (this.current === 'READY') this.set('STALE', true);
    }, this.options.staleAfterMs).unref();
    this.errorTimer = setTimeout(() => {
      if (this.current === 'READY' || this.current === 'STALE') this.set('ERROR', true);
    }, this.options.errorAfterMs).unref();
  }

  private clearTimers(): void {
    clearTimeout(this.staleTimer);
    clearTimeout(this.errorTimer);
    this.staleTimer = undefined;
    this.errorTimer = undefined;
  }

  private set(state: ProviderState, announce: boolean): void {
    this.current = state;
    if (!announce) return;
    if (state === 'READY') this.events.ready();
    else if (state === 'STALE') this.events.stale(`no word from Ensign for ${this.options.staleAfterMs} ms: ${this.lostReason}`);
    else if (state === 'ERROR') this.events.error(`no word from Ensign for ${this.options.errorAfterMs} ms: ${this.lostReason}`);
  }
}
