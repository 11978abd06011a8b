/**
 * Folds bursts of work per key: at most one task runs per key, and while it runs only the newest
 * task asked for waits (older waiting ones are dropped, each newer one supersedes them).
 */
export class KeyedLanes {
  private readonly lanes = new Map<string, { running: Promise<void>; next: (() => Promise<void>) | undefined }>();

  /** Runs `task` for `key` now, or after the running one, unless a newer task replaces it first. */
  run(key: string, task: () => Promise<void>): void {
    const lane = this.lanes.get(key);
    if (lane !== undefined) {
      lane.next = task;
      return;
    }
    const fresh: { running: Promise<void>; next: (() => Promise<void>) | undefined } = { running: Promise.resolve(), next: task };
    this.lanes.set(key, fresh);
    fresh.running = this.drain(key, fresh);
  }

  /** Resolves once every task asked for so far has run. */
  async settled(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()].map((lane) => lane.running));
  }

  private async drain(key: string, lane: { next: (() => Promise<void>) | undefined }): Promise<void> {
    await Promise.resolve();
    while (lane.next !== undefined) {
      const task = lane.next;
      lane.next = undefined;
      try {
        await task();
      } catch {
        // A task reports its own failures; the lane goes on.
      }
    }
    this.lanes.delete(key);
  }
}
