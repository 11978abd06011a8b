/** Boolean flag evaluation, reference §6.3. */
import type { CompiledFlag, CompiledSnapshot, FlagPlan } from './compiled-snapshot.js';
import { EvaluationCall } from './evaluation-call.js';
import type { BooleanResult, EvaluationEnv, EvaluationFailure, FlagInput } from './evaluation-types.js';
import { booleanOf } from './evaluate-rollouts.js';
import { flagNotFound, typeMismatch } from './failures.js';
import { phaseAt } from './flag-plan.js';
import { failedPrerequisite } from './prerequisites.js';

/** Evaluates a boolean flag; a variant flag is a TYPE_MISMATCH, an absent one FLAG_NOT_FOUND. */
export function evaluateBoolean(
  compiled: CompiledSnapshot,
  input: FlagInput,
  env: EvaluationEnv,
): BooleanResult | EvaluationFailure {
  const flag = compiled.flags.get(input.flagKey) as FlagPlan | undefined;
  if (flag === undefined) return flagNotFound(compiled.namespaceKey, input.flagKey);
  if (flag.isVariant) return typeMismatch('VARIANT_FLAG_TYPE');
  if (flag.plain) return booleanOf(flag, input);
  if (flag.prerequisites.length === 0) return booleanOf(phaseAt(flag, env.now()), input);
  return gatedBooleanOf(compiled.flags, flag, input, new EvaluationCall(env));
}

/**
 * A boolean flag with prerequisites: false (DEFAULT, naming the parent) when one fails, whatever
 * its rollouts or enabled state say; Flipt never answers a boolean flag FLAG_DISABLED, so there is
 * no disabled outcome to win over the prerequisites.
 */
export function gatedBooleanOf(
  flags: ReadonlyMap<string, CompiledFlag>,
  flag: FlagPlan,
  input: FlagInput,
  call: EvaluationCall,
): BooleanResult | EvaluationFailure {
  call.begin();
  const failed = failedPrerequisite(flags, flag, input, call);
  if (failed !== undefined) return failed.booleanFailure;
  return booleanOf(call.current(flag), input);
}
