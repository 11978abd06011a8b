/**
 * When a snapshot's flags change with time (schedules, window edges, ramp steps), and which flags
 * each time changes: the flag itself and every flag that requires it, directly or not. The
 * provider evaluates on its own clock, so nothing arrives at those times; it says so itself.
 */
import { flagBoundaries, nextBoundary, type SnapshotFlag } from '@ensign/engine';

export class FlagTimeline {
  /** Sorted, distinct epoch milliseconds. */
  readonly boundaries: readonly number[];
  private readonly flagsAt = new Map<number, string[]>();

  constructor(flags: readonly SnapshotFlag[]) {
    const dependents = new Map<string, string[]>();
    for (const flag of flags) {
      for (const prerequisite of flag.prerequisites ?? []) {
        const list = dependents.get(prerequisite.flagKey) ?? [];
        list.push(flag.key);
        dependents.set(prerequisite.flagKey, list);
      }
    }
    for (const flag of flags) {
      for (const at of flagBoundaries(flag)) {
        const keys = this.flagsAt.get(at) ?? [];
        keys.push(...withDependents(flag.key, dependents));
        this.flagsAt.set(at, keys);
      }
    }
    this.boundaries = [...this.flagsAt.keys()].sort((a, b) => a - b);
  }

  /** The first boundary after `t`, if any. */
  next(t: number): number | undefined {
    return nextBoundary(this.boundaries, t);
  }

  /** The keys of the flags whose answers may change at `at`, sorted. */
  changedAt(at: number): string[] {
    return [...new Set(this.flagsAt.get(at) ?? [])].sort();
  }
}

function withDependents(key: string, dependents: ReadonlyMap<string, string[]>): string[] {
  const seen = new Set<string>([key]);
  const queue = [key];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const child of dependents.get(next) ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return [...seen];
}
