/**
 * Load for the replicated-bus test: a control plane toggling one flag at a steady rate, and
 * evaluators answering for it, every answer that is not a 200 counted as a failed evaluation.
 */
import type { JsonClient } from '@ensign/testkit';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Toggles `flagKey` one write at a time, at most `perSecond`; remembers what was acknowledged. */
export class FlagWriter {
  acknowledged = 0;
  /** `enabled` as the last acknowledged write left it. */
  lastEnabled = true;
  lastAckAt = 0;
  readonly refused: string[] = [];
  private paused = false;
  private inFlight = false;
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly api: JsonClient,
    private readonly ns: string,
    private readonly flagKey: string,
    perSecond: number,
  ) {
    this.loop = this.run(1000 / perSecond);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Resolves once the write in flight, if any, is answered: nothing more is written until resumed. */
  async quiet(): Promise<void> {
    this.pause();
    while (this.inFlight) await delay(5);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(intervalMs: number): Promise<void> {
    let next = performance.now();
    while (!this.stopped) {
      if (this.paused) {
        await delay(20);
        next = performance.now();
        continue;
      }
      const enabled = !this.lastEnabled;
      this.inFlight = true;
      try {
        const res = await this.api.put(`/api/v1/namespaces/${this.ns}/flags/${this.flagKey}`, { key: this.flagKey, name: this.flagKey, enabled });
        if (res.status === 200) {
          this.acknowledged++;
          this.lastEnabled = enabled;
          this.lastAckAt = Date.now();
        } else this.refused.push(`HTTP ${res.status} ${res.text}`);
      } catch (err) {
        this.refused.push(String(err));
      } finally {
        this.inFlight = false;
      }
      next += intervalMs;
      await delay(Math.max(0, next - performance.now()));
    }
  }
}

/** Evaluates the flag on every evaluator, each at most `perSecond`; counts what did not answer 200. */
export class EvaluationLoad {
  answered = 0;
  readonly failures: string[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[];

  constructor(evaluators: JsonClient[], ns: string, flagKey: string, perSecond: number) {
    this.loops = evaluators.map((evaluator, i) => this.run(evaluator, { namespaceKey: ns, flagKey, entityId: `entity-${i}`, context: {} }, 1000 / perSecond));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async run(evaluator: JsonClient, request: object, intervalMs: number): Promise<void> {
    while (!this.stopped) {
      const started = performance.now();
      try {
        const res = await evaluator.post('/evaluate/v1/boolean', request);
        if (res.status === 200) this.answered++;
        else this.failures.push(`${evaluator.baseUrl}: HTTP ${res.status} ${res.text}`);
      } catch (err) {
        this.failures.push(`${evaluator.baseUrl}: ${String(err)}`);
      }
      await delay(Math.max(0, intervalMs - (performance.now() - started)));
    }
  }
}
