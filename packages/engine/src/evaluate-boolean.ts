/** Boolean flag evaluation, reference §6.3. */
import type { CompiledSnapshot, FlagPlan } from './compiled-snapshot.js';
import type { BooleanResult, EvaluationEnv, EvaluationFailure, FlagInput } from './evaluation-types.js';
import { flagNotFound, typeMismatch, unknownConstraintType } from './failures.js';
import { GROUP_FAILED, matchGroup } from './match-segments.js';

const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_CONTEXT: Readonly<Record<string, string>> = Object.freeze({});

/** Evaluates a boolean flag; a variant flag is a TYPE_MISMATCH, an absent one FLAG_NOT_FOUND. */
export function evaluateBoolean(
  compiled: CompiledSnapshot,
  input: FlagInput,
  _env: EvaluationEnv,
): BooleanResult | EvaluationFailure {
  const flag = compiled.flags.get(input.flagKey) as FlagPlan | undefined;
  if (flag === undefined) return flagNotFound(compiled.namespaceKey, input.flagKey);
  if (flag.isVariant) return typeMismatch('VARIANT_FLAG_TYPE');
  return booleanOf(flag, input);
}

/**
 * The value of a boolean flag for one entity. COMPAT(flipt): rollouts are evaluated even when the flag
 * is disabled; only the fall-through returns `enabled`.
 */
export function booleanOf(flag: FlagPlan, input: FlagInput): BooleanResult | EvaluationFailure {
  const rollouts = flag.rollouts;
  const context = input.context ?? NO_CONTEXT;
  const entityId = typeof input.entityId === 'string' ? input.entityId : '';
  let bucket = -1;
  for (let r = 0; r < rollouts.length; r++) {
    const rollout = rollouts[r]!;
    const group = rollout.group;
    if (group === null) {
      if (bucket < 0) bucket = flag.bucketer.threshold(entityId);
      // float32(bucket) is exact for 0..99; the percentage was rounded to float32 at compile time.
      if (bucket < rollout.percentage) return result(rollout.value, 'MATCH_EVALUATION_REASON', NO_KEYS);
      continue;
    }
    const keys = matchGroup(group, context, entityId);
    if (keys === null) continue;
    if (keys === GROUP_FAILED) return unknownConstraintType();
    return result(rollout.value, 'MATCH_EVALUATION_REASON', keys);
  }
  return result(flag.enabled, 'DEFAULT_EVALUATION_REASON', NO_KEYS);
}

function result(enabled: boolean, reason: BooleanResult['reason'], segmentKeys: readonly string[]): BooleanResult {
  // segmentKeys may be a frozen array shared between results: callers read it, never mutate it.
  return { enabled, reason, segmentKeys: segmentKeys as string[] };
}
