/**
 * The time-bound parts of a flag (schedules, rule and rollout windows, ramps) read as epoch
 * milliseconds, and what they make of the flag at a time t:
 * - enabled: that of the last schedule with at ≤ t, else the flag's own;
 * - a rule or rollout counts when validFrom ≤ t < validUntil (either bound optional);
 * - a threshold's percentage: that of the last ramp step with at ≤ t, else its own.
 * Compilation and the client snapshot's folding both read the flag through these.
 */
import { timestampMs } from './parsing/timestamp.js';
import type { SnapshotDocument, SnapshotFlag, SnapshotRollout, SnapshotWindow } from './snapshot-document.js';

/** [from, until) in epoch milliseconds; an open side is infinite. */
export interface TimeWindow {
  readonly from: number;
  readonly until: number;
}

const ALWAYS: TimeWindow = Object.freeze({ from: -Infinity, until: Infinity });

/** From `at` on, the value is `value`. */
export interface TimeStep<V> {
  readonly at: number;
  readonly value: V;
}

const NO_STEPS: readonly never[] = Object.freeze([]);

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

export function windowOf(item: SnapshotWindow): TimeWindow {
  const { validFrom, validUntil } = item;
  if (!isSet(validFrom) && !isSet(validUntil)) return ALWAYS;
  return { from: isSet(validFrom) ? timestampMs(validFrom) : -Infinity, until: isSet(validUntil) ? timestampMs(validUntil) : Infinity };
}

export const within = (window: TimeWindow, t: number): boolean => window.from <= t && t < window.until;

/** The value of the last step at or before `t`, else `initial`; steps are in time order. */
export function valueAt<V>(steps: readonly TimeStep<V>[], initial: V, t: number): V {
  let value = initial;
  for (const step of steps) {
    if (step.at > t) break;
    value = step.value;
  }
  return value;
}

export function scheduleSteps(flag: SnapshotFlag): readonly TimeStep<boolean>[] {
  const schedules = flag.schedules;
  if (!schedules?.length) return NO_STEPS;
  return schedules.map((s) => ({ at: timestampMs(s.at), value: s.enabled }));
}

export function rampSteps(rollout: SnapshotRollout): readonly TimeStep<number>[] {
  const ramp = rollout.threshold?.ramp;
  if (!ramp?.length) return NO_STEPS;
  return ramp.map((step) => ({ at: timestampMs(step.at), value: step.percentage }));
}

const hasWindow = (item: SnapshotWindow): boolean => isSet(item.validFrom) || isSet(item.validUntil);

/** Whether the flag changes with time: it has a schedule, a window or a ramp. */
export function isTimed(flag: SnapshotFlag): boolean {
  if (flag.schedules?.length) return true;
  if (flag.rules.some(hasWindow)) return true;
  return flag.rollouts.some((r) => hasWindow(r) || Boolean(r.threshold?.ramp?.length));
}

/** Sorted, distinct epoch milliseconds of every schedule, window edge and ramp step of `flag`. */
export function flagBoundaries(flag: SnapshotFlag): number[] {
  if (!isTimed(flag)) return [];
  const times: number[] = [];
  for (const step of scheduleSteps(flag)) times.push(step.at);
  const addWindow = (item: SnapshotWindow): void => {
    const { from, until } = windowOf(item);
    if (from !== -Infinity) times.push(from);
    if (until !== Infinity) times.push(until);
  };
  flag.rules.forEach(addWindow);
  for (const rollout of flag.rollouts) {
    addWindow(rollout);
    for (const step of rampSteps(rollout)) times.push(step.at);
  }
  return sortedDistinct(times);
}

/** Sorted, distinct epoch milliseconds of every boundary of every flag of `document`. */
export function documentBoundaries(document: SnapshotDocument): number[] {
  const times: number[] = [];
  for (const flag of document.flags) for (const t of flagBoundaries(flag)) times.push(t);
  return sortedDistinct(times);
}

function sortedDistinct(times: number[]): number[] {
  times.sort((a, b) => a - b);
  return times.filter((t, i) => i === 0 || t !== times[i - 1]);
}

/** How many of the sorted `boundaries` are at or before `t`: the index of the phase `t` falls in. */
export function boundariesPassed(boundaries: readonly number[], t: number): number {
  let lo = 0;
  let hi = boundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (boundaries[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first of the sorted `boundaries` after `t`, or undefined when none is. */
export function nextBoundary(boundaries: readonly number[], t: number): number | undefined {
  return boundaries[boundariesPassed(boundaries, t)];
}
