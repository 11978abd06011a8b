/** A variant flag's rules walked for one entity, reference §6.2. */
import type { EvaluationReason } from '@ensign/core';
import type { FlagPlan } from './compiled-snapshot.js';
import type { EvaluationFailure, FlagInput, VariantResult } from './evaluation-types.js';
import { unknownConstraintType } from './failures.js';
import { GROUP_FAILED, matchGroup } from './match-segments.js';

const NO_CONTEXT: Readonly<Record<string, string>> = Object.freeze({});

/** The variant of a variant flag's plan for one entity (no lookup, no type check, no clock). */
export function variantOf(flag: FlagPlan, input: FlagInput): VariantResult | EvaluationFailure {
  if (!flag.enabled) return flag.disabledOutcome;
  const rules = flag.rules;
  const context = input.context ?? NO_CONTEXT;
  const entityId = typeof input.entityId === 'string' ? input.entityId : '';
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    const keys = matchGroup(rule.group, context, entityId);
    if (keys === null) continue;
    if (keys === GROUP_FAILED) return unknownConstraintType();
    // Every segment matched: the result is one of those built when the flag was compiled.
    const built = keys === rule.group.allKeys ? rule.outcomes : undefined;
    const bounds = rule.bounds;
    if (bounds.length === 0) {
      return built?.[0] ?? result(true, 'MATCH_EVALUATION_REASON', flag.defaultVariantKey, flag.defaultVariantAttachment, keys);
    }
    const bucket = flag.bucketer.variant(entityId);
    for (let i = 0; i < bounds.length; i++) {
      if (bucket < bounds[i]!) {
        return built?.[i] ?? result(true, 'MATCH_EVALUATION_REASON', rule.variantKeys[i]!, rule.variantAttachments[i]!, keys);
      }
    }
    // COMPAT(flipt): distributions summing below 100% that miss the bucket end the evaluation.
    return built?.[bounds.length + 1] ?? result(false, flag.baseReason, flag.defaultVariantKey, flag.defaultVariantAttachment, keys);
  }
  return flag.unmatchedOutcome;
}

function result(
  match: boolean,
  reason: EvaluationReason,
  variantKey: string,
  variantAttachment: string,
  segmentKeys: readonly string[],
): VariantResult {
  // segmentKeys may be a frozen array shared between results: callers read it, never mutate it.
  return { match, reason, variantKey, variantAttachment, segmentKeys: segmentKeys as string[] };
}
