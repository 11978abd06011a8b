/**
 * Whether a flag's prerequisites hold for one entity. Parents are looked up in the snapshot being
 * evaluated and evaluated at the call's time, for the same entity and context:
 * - a missing parent fails;
 * - `enabled: X` on a boolean parent holds when the parent's value is X;
 * - `enabled: X` on a variant parent holds when its enabled state is X;
 * - `variants` holds when the parent is a variant flag, enabled, serving a listed variant (its
 *   default variant included).
 * A parent whose own prerequisite fails counts as disabled (a boolean parent's value is then
 * false), so a chain fails wherever it breaks. A parent whose evaluation fails (a constraint of
 * unknown type) fails the prerequisite; a walk past the depth guard (a cycle) fails every
 * prerequisite on its way back, so the evaluated flag's fails whatever the parents' values.
 */
import type { CompiledFlag, FlagPlan, PrerequisitePlan } from './compiled-snapshot.js';
import type { EvaluationCall } from './evaluation-call.js';
import type { FlagInput } from './evaluation-types.js';
import { booleanOf } from './evaluate-rollouts.js';
import { variantOf } from './evaluate-rules.js';
import { isFailure } from './failures.js';

/** The first of `flag`'s prerequisites that fails, or undefined when all hold. */
export function failedPrerequisite(
  flags: ReadonlyMap<string, CompiledFlag>,
  flag: FlagPlan,
  input: FlagInput,
  call: EvaluationCall,
): PrerequisitePlan | undefined {
  const prerequisites = flag.prerequisites;
  if (prerequisites.length === 0) return undefined;
  if (!call.enter(flag)) return prerequisites[0];
  let failed: PrerequisitePlan | undefined;
  for (let i = 0; i < prerequisites.length; i++) {
    if (!holds(flags, prerequisites[i]!, input, call) || call.broken) {
      failed = prerequisites[i];
      break;
    }
  }
  call.leave();
  return failed;
}

function holds(flags: ReadonlyMap<string, CompiledFlag>, p: PrerequisitePlan, input: FlagInput, call: EvaluationCall): boolean {
  const parent = flags.get(p.flagKey) as FlagPlan | undefined;
  if (parent === undefined) return false;
  const now = call.current(parent);
  if (parent.isVariant) {
    const on = now.enabled && failedPrerequisite(flags, parent, input, call) === undefined;
    if (p.variants === null) return on === p.enabled;
    if (!on) return false;
    const served = variantOf(now, input);
    return !isFailure(served) && p.variants.includes(served.variantKey);
  }
  if (p.variants !== null) return false;
  if (failedPrerequisite(flags, parent, input, call) !== undefined) return p.enabled === false;
  const value = booleanOf(now, input);
  return !isFailure(value) && value.enabled === p.enabled;
}
