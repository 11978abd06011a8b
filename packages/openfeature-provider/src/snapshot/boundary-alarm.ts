/**
 * Wakes the provider when a boundary of the held snapshot passes (a schedule, a window edge, a ramp
 * step), so it can tell its clients which flags changed although nothing arrived: it evaluates on
 * its own clock, as an evaluator does.
 */
import type { FlagTimeline } from './flag-timeline.js';

/** The longest delay a timer takes; a boundary further away is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class BoundaryAlarm {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly now: () => number,
    private readonly passed: (flagKeys: string[]) => void,
  ) {}

  /** Follows `timeline` from now on, forgetting the one followed before. */
  follow(timeline: FlagTimeline): void {
    this.stop();
    this.arm(timeline, this.now());
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sets the timer for the first boundary after `after`. */
  private arm(timeline: FlagTimeline, after: number): void {
    const next = timeline.next(after);
    if (next === undefined) return;
    // A millisecond past the boundary, so the clock has reached it when the timer fires.
    const delay = Math.max(0, Math.min(next - this.now() + 1, MAX_TIMER_MS));
    this.timer = setTimeout(() => {
      const now = this.now();
      if (now < next) {
        this.arm(timeline, after);
        return;
      }
      const keys = new Set<string>();
      for (let at = timeline.next(after); at !== undefined && at <= now; at = timeline.next(at)) for (const key of timeline.changedAt(at)) keys.add(key);
      this.arm(timeline, now);
      this.passed([...keys].sort());
    }, delay).unref();
  }
}
