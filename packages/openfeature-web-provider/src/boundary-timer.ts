/**
 * Schedules, windows and ramps change answers on the page's clock, with no snapshot to announce
 * it: one timer waits for the document's next boundary.
 */
import { documentBoundaries, nextBoundary, type SnapshotDocument } from '@ensign/engine';

/** The longest delay a timer takes; a boundary further away is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class BoundaryTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Calls `passed` once the first boundary of `document` after `now` has passed (replacing any earlier wait). */
  schedule(document: SnapshotDocument, now: number, passed: () => void): void {
    this.cancel();
    const next = nextBoundary(documentBoundaries(document), now);
    if (next === undefined) return;
    // A millisecond past the boundary, so the clock has reached it when the timer fires.
    this.timer = setTimeout(passed, Math.min(next - now + 1, MAX_TIMER_MS));
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
