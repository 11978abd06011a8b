/** Variant flag evaluation, reference §6.2. */
import type { CompiledFlag, CompiledSnapshot, FlagPlan } from './compiled-snapshot.js';
import { EvaluationCall } from './evaluation-call.js';
import type { EvaluationEnv, EvaluationFailure, FlagInput, VariantResult } from './evaluation-types.js';
import { variantOf } from './evaluate-rules.js';
import { flagNotFound, typeMismatch } from './failures.js';
import { phaseAt } from './flag-plan.js';
import { failedPrerequisite } from './prerequisites.js';

/** Evaluates a variant flag; a boolean flag is a TYPE_MISMATCH, an absent one FLAG_NOT_FOUND. */
export function evaluateVariant(
  compiled: CompiledSnapshot,
  input: FlagInput,
  env: EvaluationEnv,
): VariantResult | EvaluationFailure {
  const flag = compiled.flags.get(input.flagKey) as FlagPlan | undefined;
  if (flag === undefined) return flagNotFound(compiled.namespaceKey, input.flagKey);
  if (!flag.isVariant) return typeMismatch('BOOLEAN_FLAG_TYPE');
  if (flag.plain) return variantOf(flag, input);
  if (flag.prerequisites.length === 0) return variantOf(phaseAt(flag, env.now()), input);
  return gatedVariantOf(compiled.flags, flag, input, new EvaluationCall(env));
}

/**
 * A variant flag with prerequisites: disabled wins (FLAG_DISABLED, prerequisites not looked at);
 * otherwise a failing one serves the default variant without a match (DEFAULT, naming the parent).
 */
export function gatedVariantOf(
  flags: ReadonlyMap<string, CompiledFlag>,
  flag: FlagPlan,
  input: FlagInput,
  call: EvaluationCall,
): VariantResult | EvaluationFailure {
  const now = call.current(flag);
  if (!now.enabled) return now.disabledOutcome;
  call.begin();
  const failed = failedPrerequisite(flags, flag, input, call);
  if (failed !== undefined) return failed.variantFailure;
  return variantOf(now, input);
}
