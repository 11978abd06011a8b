/**
 * The batches a process has counted but not yet had stored, oldest first (every shipper of counts
 * keeps one: the evaluators' and the in-process providers'). Batches are sent in
 * order and sending stops at the first failure, so only the oldest can ever have been tried: it
 * keeps its id (the receiver may have stored it before the reply was lost), and every batch behind
 * it, never sent, may be merged into one under a fresh id without counting anything twice.
 */
import type { UsageBatch, UsageCount } from './usage.js';

export interface PendingBatch {
  batch: UsageBatch;
  /** Sent at least once: its id must stay, so a retry is recognised as the same batch. */
  tried: boolean;
}

const keyOf = (c: UsageCount): string => JSON.stringify([c.namespaceKey, c.flagKey, c.value, c.reason]);

/** `counts` in runs of at most `size`, so no batch outgrows a message. */
export function chunked(counts: UsageCount[], size: number): UsageCount[][] {
  const chunks: UsageCount[][] = [];
  for (let i = 0; i < counts.length; i += size) chunks.push(counts.slice(i, i + size));
  return chunks;
}

/** The counts of `batches` summed per (namespace, flag, value, reason). */
export function mergeCounts(batches: readonly UsageBatch[]): UsageCount[] {
  const merged = new Map<string, UsageCount>();
  for (const { counts } of batches) {
    for (const c of counts) {
      const key = keyOf(c);
      const found = merged.get(key);
      if (found === undefined) merged.set(key, { ...c });
      else found.count += c.count;
    }
  }
  return [...merged.values()];
}

export class PendingBatches {
  private readonly queue: PendingBatch[] = [];

  constructor(
    private readonly maxWaiting: number,
    private readonly maxCounts: number,
  ) {}

  get length(): number {
    return this.queue.length;
  }

  /** The oldest batch, to be sent next. */
  head(): PendingBatch | undefined {
    return this.queue[0];
  }

  /** Counts held in every waiting batch (what a process would lose if it died now). */
  countTotal(): number {
    let total = 0;
    for (const { batch } of this.queue) for (const c of batch.counts) total += c.count;
    return total;
  }

  add(batch: UsageBatch): void {
    this.queue.push({ batch, tried: false });
  }

  /** Removes the oldest batch once it is stored. */
  shift(): void {
    this.queue.shift();
  }

  /**
   * Once more than `maxWaiting` batches wait, folds every untried one into as few batches as
   * `maxCounts` allows, named by `nextId()` and dated by the newest of them: memory stays bounded by
   * the number of distinct counts however long the receiver is away, and no count is dropped.
   * Returns how many batches were folded.
   */
  compact(nextId: () => string): number {
    if (this.queue.length <= this.maxWaiting) return 0;
    const start = this.queue[0]?.tried === true ? 1 : 0;
    const untried = this.queue.splice(start).map((p) => p.batch);
    const at = Math.max(...untried.map((b) => b.at));
    for (const counts of chunked(mergeCounts(untried), this.maxCounts)) this.queue.push({ batch: { id: nextId(), at, counts }, tried: false });
    return untried.length;
  }
}
