/**
 * Delays between reconnection attempts: exponential from `initialMs` up to `maxMs`, each drawn at
 * random from the upper half of its step (so a fleet of clients cut off together does not come back
 * in step), never below `minMs`, so a proxy that accepts and drops every stream at once costs at most
 * one attempt per `minMs`. Only a stream that stayed up for a while starts the steps over.
 */
export interface BackoffOptions {
  minMs: number;
  initialMs: number;
  maxMs: number;
  random?: () => number;
}

export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The delay before the next attempt. */
  next(): number {
    const { minMs, initialMs, maxMs, random = Math.random } = this.options;
    const step = Math.min(maxMs, initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return Math.max(minMs, Math.round(step / 2 + random() * (step / 2)));
  }

  reset(): void {
    this.attempt = 0;
  }
}
