/**
 * Writes at a fixed rate through the control planes' load balancer, one after another: each creates
 * flag `w-<n>`, so every write leaves something of its own to find afterwards. What was
 * acknowledged (200) and when is kept; a refusal (503 during a database outage, 502 for a write in
 * flight at a control plane's death) is counted and not retried.
 */
import type { JsonClient } from '@ensign/testkit';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface AcknowledgedWrite {
  key: string;
  /** `performance.now()` when the 200 arrived. */
  at: number;
}

export class SoakWriter {
  readonly acknowledged: AcknowledgedWrite[] = [];
  /** Answers other than 200, by status (0: no answer). */
  readonly refused = new Map<number, number>();
  attempted = 0;
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly api: JsonClient,
    private readonly ns: string,
    perSecond: number,
  ) {
    this.loop = this.run(1000 / perSecond);
  }

  private async run(intervalMs: number): Promise<void> {
    let next = performance.now();
    while (!this.stopping) {
      const key = `w-${this.attempted++}`;
      let status = 0;
      try {
        status = (await this.api.post(`/api/v1/namespaces/${this.ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status;
      } catch {
        status = 0;
      }
      if (status === 200) this.acknowledged.push({ key, at: performance.now() });
      else this.refused.set(status, (this.refused.get(status) ?? 0) + 1);
      next += intervalMs;
      await delay(Math.max(0, next - performance.now()));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }
}
