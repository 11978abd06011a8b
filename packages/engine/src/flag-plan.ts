/** Making flag plans, and reading a timed one at a time. */
import type { CompiledFlag, FlagPlan } from './compiled-snapshot.js';
import type { EvaluationEnv } from './evaluation-types.js';
import { boundariesPassed } from './timeline.js';

/**
 * A frozen plan with `fields`. Every plan is made here, as one object literal, so all of them share
 * one shape and the evaluation loop's property reads stay monomorphic.
 */
export function flagPlan(fields: FlagPlan): FlagPlan {
  return Object.freeze({
    disabledOutcome: fields.disabledOutcome,
    unmatchedOutcome: fields.unmatchedOutcome,
    key: fields.key,
    type: fields.type,
    enabled: fields.enabled,
    isVariant: fields.isVariant,
    defaultVariantKey: fields.defaultVariantKey,
    defaultVariantAttachment: fields.defaultVariantAttachment,
    baseReason: fields.baseReason,
    rules: fields.rules,
    rollouts: fields.rollouts,
    bucketer: fields.bucketer,
    plain: fields.plain,
    boundaries: fields.boundaries,
    phases: fields.phases,
    prerequisites: fields.prerequisites,
  });
}

/** The phase of a timed flag that holds at `now` (epoch ms); an untimed flag is its own. */
export function phaseAt(flag: FlagPlan, now: number): FlagPlan {
  return flag.phases.length === 0 ? flag : flag.phases[boundariesPassed(flag.boundaries, now)]!;
}

/** Whether a compiled flag is enabled at the environment's time: its schedules applied. */
export function flagEnabled(flag: CompiledFlag, env: EvaluationEnv): boolean {
  const plan = flag as FlagPlan;
  return plan.phases.length === 0 ? plan.enabled : phaseAt(plan, env.now()).enabled;
}
