/**
 * Spreads long work over turns of the event loop: the work asks `spent()` between small steps and,
 * when the current turn has run its budget, awaits `next()`, which lets timers, I/O and requests
 * waiting meanwhile run first. The longest block is then about the budget plus one step.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of work per turn: far under the 20 ms an evaluation may wait behind it. */
export const SLICE_BUDGET_MS = 5;

export class EventLoopSlices {
  private startedAt = performance.now();

  constructor(private readonly budgetMs = SLICE_BUDGET_MS) {}

  /** Whether this turn has used its budget. */
  spent(): boolean {
    return performance.now() - this.startedAt >= this.budgetMs;
  }

  /** Resolves in a later turn of the event loop, which starts a new budget. */
  async next(): Promise<void> {
    await nextTurn();
    this.startedAt = performance.now();
  }
}
