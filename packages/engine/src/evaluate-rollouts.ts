/** A boolean flag's rollouts walked for one entity, reference §6.3. */
import type { FlagPlan } from './compiled-snapshot.js';
import type { BooleanResult, EvaluationFailure, FlagInput } from './evaluation-types.js';
import { unknownConstraintType } from './failures.js';
import { GROUP_FAILED, matchGroup } from './match-segments.js';

const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_CONTEXT: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The value of a boolean flag's plan for one entity (no lookup, no type check, no clock).
 * COMPAT(flipt): rollouts are evaluated even when the flag is disabled; only the fall-through
 * returns `enabled`.
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
