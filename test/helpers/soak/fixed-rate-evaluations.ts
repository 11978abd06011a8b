/**
 * Evaluations at a fixed rate through the load balancer, each sent on its tick whether or not the
 * ones before it were answered (a client that waited would slow down exactly when it should
 * notice): every answer that is not a 200, and every connection failure, is a failed evaluation.
 */
import type { JsonClient } from '@ensign/testkit';

export interface FailedEvaluation {
  /** `performance.now()` when the failure was seen. */
  at: number;
  why: string;
}

export class FixedRateEvaluations {
  attempted = 0;
  readonly failed: FailedEvaluation[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly client: JsonClient,
    private readonly request: { namespaceKey: string; flagKey: string },
    perSecond: number,
  ) {
    // Ticks of 10 ms, each sending what the rate owes since the start, so timer drift never lowers it.
    const started = performance.now();
    this.timer = setInterval(() => {
      const owed = Math.floor(((performance.now() - started) / 1000) * perSecond);
      while (this.attempted < owed) this.send(this.attempted++);
    }, 10);
  }

  private send(n: number): void {
    const sent = this.client
      .post('/evaluate/v1/boolean', { ...this.request, entityId: `e${n % 1000}` })
      .then(
        (res) => {
          if (res.status !== 200) this.failed.push({ at: performance.now(), why: `HTTP ${res.status} ${res.text.slice(0, 200)}` });
        },
        (err: unknown) => {
          this.failed.push({ at: performance.now(), why: String(err).slice(0, 300) });
        },
      )
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  /** Stops sending and waits for every evaluation still in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }
}
