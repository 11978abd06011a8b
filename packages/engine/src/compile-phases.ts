/**
 * The phases of a flag with schedules, windows or ramps: between two of its boundaries nothing about
 * it changes, so each interval gets a plain plan of the flag as it stands then, made once at compile
 * time. Evaluation finds the phase by a binary search over the boundaries and allocates nothing.
 */
import type { FlagPlan, RolloutPlan, RulePlan } from './compiled-snapshot.js';
import { flagPlan } from './flag-plan.js';
import type { SnapshotFlag } from './snapshot-document.js';
import { flagBoundaries, type TimeStep, type TimeWindow, scheduleSteps, valueAt, within } from './timeline.js';

/** A compiled rule or rollout with the window it counts in and, for a ramped threshold, its steps. */
export interface TimedPart<P> {
  readonly plan: P;
  readonly window: TimeWindow;
  readonly ramp: readonly TimeStep<number>[];
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The boundaries of `flag` and its phases: `phases[0]` before the first boundary, `phases[i]` from
 * `boundaries[i - 1]`. `base` gives everything a phase does not change.
 */
export function compilePhases(
  flag: SnapshotFlag,
  base: FlagPlan,
  rules: readonly TimedPart<RulePlan>[],
  rollouts: readonly TimedPart<RolloutPlan>[],
): { boundaries: readonly number[]; phases: readonly FlagPlan[] } {
  const boundaries = Object.freeze(flagBoundaries(flag));
  const schedule = scheduleSteps(flag);
  const starts = [-Infinity, ...boundaries];
  const phases = starts.map((t) =>
    flagPlan({
      ...base,
      enabled: valueAt(schedule, flag.enabled, t),
      rules: Object.freeze(rules.filter((r) => within(r.window, t)).map((r) => r.plan)),
      rollouts: Object.freeze(rollouts.filter((r) => within(r.window, t)).map((r) => rampedAt(r, t))),
      plain: true,
      boundaries: EMPTY,
      phases: EMPTY,
      prerequisites: EMPTY,
    }),
  );
  return { boundaries, phases: Object.freeze(phases) };
}

function rampedAt(rollout: TimedPart<RolloutPlan>, t: number): RolloutPlan {
  const { plan, ramp } = rollout;
  if (ramp.length === 0) return plan;
  const percentage = Math.fround(valueAt(ramp, plan.percentage, t));
  return percentage === plan.percentage ? plan : Object.freeze({ group: plan.group, percentage, value: plan.value });
}
