/**
 * OpenFeature's reasons for Flipt's results. As the server's OFREP answers them (see the
 * evaluator's ofrep.operations.ts; kept here as this package may not import server code):
 * MATCH → TARGETING_MATCH, DEFAULT → DEFAULT, FLAG_DISABLED → DISABLED, and a failed prerequisite
 * → PREREQUISITE_FAILED. Beyond OFREP: a match that was a pseudorandom assignment (a rule's
 * distribution, a threshold rollout) is SPLIT, and a variant flag that matched nothing and has no
 * default variant (Flipt's UNKNOWN) is DEFAULT, since the caller's default value is answered.
 */
import type { BooleanResult, VariantResult } from '@ensign/engine';
import { type ResolutionReason, StandardResolutionReasons } from '@openfeature/server-sdk';

export const PREREQUISITE_FAILED = 'PREREQUISITE_FAILED';

/** A variant result's reason; `split` says whether a match came from a bucket. */
export function variantReason(result: VariantResult, split: boolean): ResolutionReason {
  if (result.reason === 'FLAG_DISABLED_EVALUATION_REASON') return StandardResolutionReasons.DISABLED;
  if (result.prerequisite !== undefined) return PREREQUISITE_FAILED;
  if (result.reason !== 'MATCH_EVALUATION_REASON') return StandardResolutionReasons.DEFAULT;
  return split ? StandardResolutionReasons.SPLIT : StandardResolutionReasons.TARGETING_MATCH;
}

/** A boolean result's reason: a segment rollout matched is targeting, a threshold rollout a split. */
export function booleanReason(result: BooleanResult): ResolutionReason {
  if (result.prerequisite !== undefined) return PREREQUISITE_FAILED;
  if (result.reason !== 'MATCH_EVALUATION_REASON') return StandardResolutionReasons.DEFAULT;
  return result.segmentKeys.length > 0 ? StandardResolutionReasons.TARGETING_MATCH : StandardResolutionReasons.SPLIT;
}
