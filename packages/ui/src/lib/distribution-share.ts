/**
 * A rule's distributions as shares of its segment, as in Flipt: they may total anything up to 100%,
 * and the rest of the segment gets no variant. The check of typed percentages, the unassigned share,
 * what deleting a variant takes from each rule, and which rule an evaluation fell through the gap of.
 */
import type { Distribution, Rule } from '@ensign/core';
import { parsePercent, roundPercent } from './distributions.js';
import { describeSegments, segmentKeysOf } from './segment-ref.js';

export interface ShareCheck {
  /** The sum of the valid percentages, to two decimals. */
  total: number;
  /** Variant ids whose text is not a percentage from 0 to 100. */
  invalid: string[];
  /** Saving is allowed: every percentage valid and the total at most 100. */
  ok: boolean;
  /** Every percentage is 0: the rule matches without a variant. */
  none: boolean;
  /** The share of the segment that gets no variant (0 to 100); 0 while the check fails. */
  unassigned: number;
  /** Why saving is blocked, naming the field. */
  message: string | undefined;
}

/** Checks percentages typed per variant id: each from 0 to 100, together at most 100. */
export function checkShares(texts: Readonly<Record<string, string>>): ShareCheck {
  const invalid: string[] = [];
  let hundredths = 0;
  for (const [variantId, text] of Object.entries(texts)) {
    const value = parsePercent(text);
    if (value === undefined) invalid.push(variantId);
    else hundredths += Math.round(value * 100);
  }
  const total = hundredths / 100;
  let message: string | undefined;
  if (invalid.length > 0) message = 'Distribution: each percentage must be a number from 0 to 100.';
  else if (hundredths > 10_000) message = `Distribution: the percentages add up to ${total}%; lower them to 100% or less.`;
  const ok = message === undefined;
  return { total, invalid, ok, none: ok && hundredths === 0, unassigned: ok ? (10_000 - hundredths) / 100 : 0, message };
}

/** The sum of a rule's distributions, to two decimals. */
export function assignedShare(distributions: readonly Pick<Distribution, 'rollout'>[]): number {
  return distributions.reduce((sum, d) => sum + Math.round(Math.max(0, d.rollout) * 100), 0) / 100;
}

/** The share of a rule's segment that gets no variant: 100 minus its distributions, never below 0. */
export function unassignedShare(distributions: readonly Pick<Distribution, 'rollout'>[]): number {
  return Math.max(0, roundPercent(100 - assignedShare(distributions)));
}

/** "segment beta" or "segments beta AND staff": a rule's segments as a sentence names them. */
export function segmentsPhrase(rule: Pick<Rule, 'segmentKey' | 'segmentKeys' | 'segmentOperator'>): string {
  return `${segmentKeysOf(rule).length > 1 ? 'segments' : 'segment'} ${describeSegments(rule)}`;
}

/** What deleting a variant takes from one rule. */
export interface VariantLoss {
  /** The rule's position, from 1. */
  rank: number;
  /** "segment beta-testers". */
  segments: string;
  /** The share the rule sends to the variant. */
  lost: number;
  /** The share of the rule's segment that gets no variant once the variant is gone. */
  unassignedAfter: number;
}

/** The rules (in rank order) that send a share to `variantId`, and what each loses. */
export function variantLosses(rules: readonly Rule[], variantId: string): VariantLoss[] {
  const losses: VariantLoss[] = [];
  rules.forEach((rule, index) => {
    const lost = assignedShare(rule.distributions.filter((d) => d.variantId === variantId));
    if (lost <= 0) return;
    const remaining = rule.distributions.filter((d) => d.variantId !== variantId);
    losses.push({ rank: index + 1, segments: segmentsPhrase(rule), lost, unassignedAfter: unassignedShare(remaining) });
  });
  return losses;
}

/** "Rule 2 (segment beta-testers) loses its 20% to blue; 20% of that segment will then get no variant." */
export function lossSentence(loss: VariantLoss, variantKey: string): string {
  const those = loss.segments.startsWith('segments ') ? 'those segments' : 'that segment';
  return `Rule ${loss.rank} (${loss.segments}) loses its ${loss.lost}% to ${variantKey}; ${loss.unassignedAfter}% of ${those} will then get no variant.`;
}

/** The rule an evaluation matched but whose distributions missed the entity's bucket. */
export interface GapMatch {
  rank: number;
  segments: string;
  unassigned: number;
}

/**
 * The rule an unmatched variant evaluation that names segments fell through: the first rule (in rank
 * order) with an unassigned share whose segments include every matched one (all of them, for AND).
 * Undefined when the answer matched, names no segment, or no rule fits.
 */
export function gapMatch(rules: readonly Rule[], answer: { match: boolean; segmentKeys: readonly string[] }): GapMatch | undefined {
  if (answer.match || answer.segmentKeys.length === 0) return undefined;
  for (const [index, rule] of rules.entries()) {
    const keys = segmentKeysOf(rule);
    const covers = answer.segmentKeys.every((key) => keys.includes(key));
    const complete = rule.segmentOperator !== 'AND_SEGMENT_OPERATOR' || keys.length === answer.segmentKeys.length;
    const unassigned = unassignedShare(rule.distributions);
    if (covers && complete && unassigned > 0 && rule.distributions.some((d) => d.rollout > 0)) {
      return { rank: index + 1, segments: segmentsPhrase(rule), unassigned };
    }
  }
  return undefined;
}

/** "Matched rule 2 (segment beta) but fell in its unassigned 20%: no variant" (or the default variant). */
export function gapSentence(gap: GapMatch, defaultVariantKey: string): string {
  const outcome = defaultVariantKey === '' ? 'no variant' : `the default variant ${defaultVariantKey} applies`;
  return `Matched rule ${gap.rank} (${gap.segments}) but fell in its unassigned ${gap.unassigned}%: ${outcome}`;
}
