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
 * Where each distribution of a rule is shown in its editor: a variant's first distribution under the
 * variant's id, any further one of the same variant (Flipt's API accepts them) under its own id, so
 * every distribution the rule holds has a field of its own.
 */
export function distributionSlots(existing: readonly Pick<Distribution, 'id' | 'variantId'>[]): Map<string, string> {
  const slots = new Map<string, string>();
  const seen = new Set<string>();
  for (const d of existing) {
    slots.set(d.id, seen.has(d.variantId) ? d.id : d.variantId);
    seen.add(d.variantId);
  }
  return slots;
}

/**
 * The calls that take a rule from `existing` to `wanted` (percentage by slot, see
 * `distributionSlots`: a variant's id, or a further distribution's own id; 0 or absent means no
 * distribution): updates and deletes first, then creates for the variants that have none.
 */
export function planDistributions(existing: readonly Pick<Distribution, 'id' | 'variantId' | 'rollout'>[], wanted: Readonly<Record<string, number>>): DistributionOp[] {
  const changes: DistributionOp[] = [];
  const creates: DistributionOp[] = [];
  const slots = distributionSlots(existing);
  const held = new Set(slots.values());
  for (const d of existing) {
    const target = wanted[slots.get(d.id) ?? d.variantId] ?? 0;
    if (target <= 0) changes.push({ kind: 'delete', id: d.id, variantId: d.variantId });
    else if (roundPercent(d.rollout) !== roundPercent(target)) changes.push({ kind: 'update', id: d.id, variantId: d.variantId, rollout: roundPercent(target) });
  }
  for (const [variantId, rollout] of Object.entries(wanted)) {
    if (rollout > 0 && !held.has(variantId)) creates.push({ kind: 'create', variantId, rollout: roundPercent(rollout) });
  }
  return [...changes, ...creates];
}

/** One field of a rule's editor: a variant, or a further distribution of one. */
export interface DistributionRow {
  /** The key of its percentage (see `distributionSlots`). */
  slot: string;
  variantId: string;
  /** 1 for a variant's (first) field, 2 for its second distribution… */
  nth: number;
}

/** The fields of a rule's editor: one per variant, in the flag's order, each followed by the variant's further distributions. */
export function distributionRows(variantIds: readonly string[], existing: readonly Pick<Distribution, 'id' | 'variantId'>[] | undefined): DistributionRow[] {
  const rows: DistributionRow[] = [];
  const slots = distributionSlots(existing ?? []);
  for (const variantId of variantIds) {
    rows.push({ slot: variantId, variantId, nth: 1 });
    let nth = 1;
    for (const d of existing ?? []) if (d.variantId === variantId && slots.get(d.id) === d.id) rows.push({ slot: d.id, variantId, nth: ++nth });
  }
  // A distribution of a variant the flag no longer lists is shown too, never dropped unseen.
  const known = new Set(variantIds);
  for (const d of existing ?? []) if (!known.has(d.variantId)) rows.push({ slot: slots.get(d.id) ?? d.id, variantId: d.variantId, nth: slots.get(d.id) === d.id ? 2 : 1 });
  return rows;
}

/** The percentages a rule dialog starts from: the rule's own (every distribution), or an even split for a new rule. */
export function initialPercents(variantIds: readonly string[], existing: readonly Pick<Distribution, 'id' | 'variantId' | 'rollout'>[] | undefined): Record<string, string> {
  if (existing === undefined) {
    const split = evenSplit(variantIds.length);
    return Object.fromEntries(variantIds.map((id, i) => [id, String(split[i] ?? 0)]));
  }
  const texts: Record<string, string> = Object.fromEntries(variantIds.map((id) => [id, '0']));
  const slots = distributionSlots(existing);
  for (const d of existing) texts[slots.get(d.id) ?? d.variantId] = percentText(d.rollout);
  return texts;
}

/** Typed percentages as numbers (valid ones only; check first). */
export function percentsOf(texts: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [variantId, text] of Object.entries(texts)) out[variantId] = parsePercent(text) ?? 0;
  return out;
}
