/**
 * Every flag of a namespace evaluated once for the page's one context, at one time: lookups are
 * then a map read, and comparing two sets of answers tells which flags a change moved for this
 * context (and only those are announced).
 */
import {
  type BooleanResult,
  type CompiledSnapshot,
  type EvaluationFailure,
  evaluateBoolean,
  evaluateVariant,
  isFailure,
  type SnapshotDocument,
  type VariantResult,
} from '@ensign/engine';
import type { EvaluationEntity } from './evaluation-entity.js';
import { isBooleanSplit, isVariantSplit } from './split-decision.js';

export type Answer =
  | { kind: 'boolean'; result: BooleanResult; split: boolean }
  | { kind: 'variant'; result: VariantResult; split: boolean }
  | { kind: 'failure'; failure: EvaluationFailure };

export type Answers = ReadonlyMap<string, Answer>;

/** The answers for `entity` to every flag of `document` (compiled as `compiled`) at `now`. */
export function answersFor(compiled: CompiledSnapshot, document: SnapshotDocument, entity: EvaluationEntity, now: number): Answers {
  const env = { now: () => now };
  const answers = new Map<string, Answer>();
  for (const flag of document.flags) {
    const input = { flagKey: flag.key, entityId: entity.entityId, context: entity.context };
    if (flag.type === 'BOOLEAN_FLAG_TYPE') {
      const result = evaluateBoolean(compiled, input, env);
      answers.set(flag.key, isFailure(result) ? { kind: 'failure', failure: result } : { kind: 'boolean', result, split: result.reason === 'MATCH_EVALUATION_REASON' && isBooleanSplit(result.segmentKeys) });
    } else {
      const result = evaluateVariant(compiled, input, env);
      answers.set(flag.key, isFailure(result) ? { kind: 'failure', failure: result } : { kind: 'variant', result, split: result.match && isVariantSplit(flag, result.segmentKeys, now) });
    }
  }
  return answers;
}

/** Everything about an answer a caller can see, as one comparable string. */
function shownOf(answer: Answer | undefined): string {
  if (answer === undefined) return '';
  if (answer.kind === 'failure') return JSON.stringify([answer.kind, answer.failure.errorCode, answer.failure.message]);
  const { result } = answer;
  const value = answer.kind === 'boolean' ? [answer.result.enabled] : [answer.result.match, answer.result.variantKey, answer.result.variantAttachment];
  return JSON.stringify([answer.kind, ...value, result.reason, result.segmentKeys, result.prerequisite ?? null, answer.split]);
}

/** The keys whose answer differs between `before` and `after` (added and removed flags included), in `after`'s order then the removed ones. */
export function changedFlags(before: Answers, after: Answers): string[] {
  const changed: string[] = [];
  for (const [key, answer] of after) if (shownOf(before.get(key)) !== shownOf(answer)) changed.push(key);
  for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed;
}
