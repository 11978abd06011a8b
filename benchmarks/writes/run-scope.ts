/**
 * Clean-ups of one run (processes, NATS bucket, database), done as soon as the run ends so runs do not
 * pile up on a small machine, and still done by the global clean-up if the benchmark is aborted first.
 */
import { onCleanup } from '../propagation/children.js';

export class RunScope {
  private readonly jobs: Array<() => Promise<unknown>> = [];

  /** Registers a clean-up; each runs once, in reverse order of registration. */
  add(job: () => Promise<unknown>): void {
    let done: Promise<unknown> | undefined;
    const once = () => (done ??= job());
    this.jobs.push(once);
    onCleanup(once);
  }

  async close(): Promise<void> {
    for (const job of [...this.jobs].reverse()) {
      await job().catch((err: Error) => console.error(`clean-up failed: ${err.message}`));
    }
  }
}
