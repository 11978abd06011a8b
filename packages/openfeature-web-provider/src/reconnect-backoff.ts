/**
 * Delays between reconnection attempts: doubling from the initial delay up to the maximum, each
 * drawn from the upper half of its step (so many pages that lost the same server do not come back
 * together), and never shorter than the initial delay, so a proxy that accepts and drops the
 * stream at once cannot drive a tight loop.
 */
export class ReconnectBackoff {
  private attempts = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const step = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.attempts, 30));
    this.attempts++;
    return Math.max(this.initialMs, step / 2 + (this.random() * step) / 2);
  }

  reset(): void {
    this.attempts = 0;
  }
}
