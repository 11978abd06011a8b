/**
 * A rule's split of traffic between variants, as percentages typed per variant: the even split a
 * new rule starts from, the running total (100, or 0 for a rule that matches without a variant),
 * and the distribution calls that turn what the rule has into what was typed.
 */
import type { Distribution } from '@ensign/core';

/** Percentages are kept to two decimals; the service stores float32, which shows as 33.33000183. */
export const roundPercent = (value: number): number => Math.round(value * 100) / 100;

/** 100 split between `count` variants in whole numbers, the remainder on the first: 34/33/33. */
export function evenSplit(count: number): number[] {
  if (count <= 0) return [];
  const base = Math.floor(100 / count);
  const rest = 100 - base * count;
  return Array.from({ length: count }, (_, i) => base + (i < rest ? 1 : 0));
}

/** A typed percentage: empty is 0; anything else must be a number from 0 to 100. */
export function parsePercent(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+(?:\.\d*)?$|^\.\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 0 && value <= 100 ? roundPercent(value) : undefined;
}

/** The text a percentage is shown as in an input: no float32 noise, no trailing zeros. */
export const percentText = (value: number): string => String(roundPercent(value));

/** One call to the distribution routes. */
export type DistributionOp =
  | { kind: 'create'; variantId: string; rollout: number }
  | { kind: 'update'; id: string; variantId: string; rollout: number }
  | { kind: 'delete'; id: string; variantId: string };

/**
 * The calls that take a rule from `existing` to `wanted` (percentage by variant id; 0 or absent
 * means no distribution): updates and deletes first, then creates. A second distribution of the
 * same variant is deleted.
 */
export function planDistributions(existing: readonly Pick<Distribution, 'id' | 'variantId' | 'rollout'>[], wanted: Readonly<Record<string, number>>): DistributionOp[] {
  const changes: DistributionOp[] = [];
  const creates: DistributionOp[] = [];
  const seen = new Set<string>();
  for (const d of existing) {
    const target = wanted[d.variantId] ?? 0;
    if (seen.has(d.variantId) || target <= 0) changes.push({ kind: 'delete', id: d.id, variantId: d.variantId });
    else if (roundPercent(d.rollout) !== roundPercent(target)) changes.push({ kind: 'update', id: d.id, variantId: d.variantId, rollout: roundPercent(target) });
    seen.add(d.variantId);
  }
  for (const [variantId, rollout] of Object.entries(wanted)) {
    if (rollout > 0 && !seen.has(variantId)) creates.push({ kind: 'create', variantId, rollout: roundPercent(rollout) });
  }
  return [...changes, ...creates];
}

/** The percentages a rule dialog starts from: the rule's own, or an even split for a new rule. */
export function initialPercents(variantIds: readonly string[], existing: readonly Pick<Distribution, 'variantId' | 'rollout'>[] | undefined): Record<string, string> {
  if (existing === undefined) {
    const split = evenSplit(variantIds.length);
    return Object.fromEntries(variantIds.map((id, i) => [id, String(split[i] ?? 0)]));
  }
  const byVariant = new Map<string, number>();
  for (const d of existing) if (!byVariant.has(d.variantId)) byVariant.set(d.variantId, d.rollout);
  return Object.fromEntries(variantIds.map((id) => [id, percentText(byVariant.get(id) ?? 0)]));
}

/** Typed percentages as numbers (valid ones only; check first). */
export function percentsOf(texts: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [variantId, text] of Object.entries(texts)) out[variantId] = parsePercent(text) ?? 0;
  return out;
}
