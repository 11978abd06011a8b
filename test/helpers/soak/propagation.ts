/**
 * How long each acknowledged write takes to be served by every evaluator: each running evaluator is
 * asked directly (not through the load balancer) for the writes it has not served yet, in batches.
 * An evaluator that comes back after a kill starts with nothing seen, so its catching up is
 * measured from its return.
 */
import { jsonClient, type JsonClient } from '@ensign/testkit';
import type { AcknowledgedWrite } from './soak-writer.js';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** The most flags one poll asks an evaluator about. */
const BATCH = 1000;

interface Watched {
  client: JsonClient;
  /** `performance.now()` when it was (re)started: writes acknowledged before are caught up from here. */
  since: number;
  seen: Set<string>;
}

export class Propagation {
  /** Per served write and evaluator: ms from the later of its acknowledgement and the evaluator's start. */
  readonly lags: Array<{ key: string; evaluator: string; ms: number; at: number }> = [];
  private readonly watched = new Map<string, Watched>();
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly ns: string,
    private readonly writes: readonly AcknowledgedWrite[],
    private readonly intervalMs = 100,
  ) {
    this.loop = this.run();
  }

  /** Starts watching the evaluator at `baseUrl` as `name` (again, after a restart: from nothing). */
  watch(name: string, baseUrl: string): void {
    this.watched.set(name, { client: jsonClient(baseUrl), since: performance.now(), seen: new Set() });
  }

  /** Stops watching `name` while it is down. */
  unwatch(name: string): void {
    this.watched.delete(name);
  }

  /** Acknowledged writes each watched evaluator does not serve yet. */
  unseen(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [name, w] of this.watched) out.set(name, this.writes.filter((write) => !w.seen.has(write.key)).map((write) => write.key));
    return out;
  }

  /** Polls until every watched evaluator serves every acknowledged write, or `timeoutMs` passes. */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if ([...this.unseen().values()].every((keys) => keys.length === 0)) return true;
      await delay(this.intervalMs);
    }
    return false;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      await Promise.all([...this.watched].map(([name, w]) => this.poll(name, w)));
      await delay(this.intervalMs);
    }
  }

  private async poll(name: string, w: Watched): Promise<void> {
    const pending = this.writes.filter((write) => !w.seen.has(write.key)).slice(0, BATCH);
    if (pending.length === 0) return;
    try {
      const res = await w.client.post('/evaluate/v1/batch', { requests: pending.map((write) => ({ namespaceKey: this.ns, flagKey: write.key, entityId: 'soak' })) });
      if (res.status !== 200) return;
      const now = performance.now();
      (res.body.responses as Array<{ responseType: string }>).forEach((answer, i) => {
        const write = pending[i]!;
        if (answer.responseType === 'RESPONSE_TYPE_ERROR' || w.seen.has(write.key)) return;
        w.seen.add(write.key);
        this.lags.push({ key: write.key, evaluator: name, ms: now - Math.max(write.at, w.since), at: now });
      });
    } catch {
      // A killed evaluator is unwatched by the fault that killed it; until then its polls fail.
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }
}
