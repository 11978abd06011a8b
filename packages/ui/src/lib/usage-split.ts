/**
 * What a flag served over a range: one row per value (or reason) with its count and share of the evaluations.
 * The values the flag can serve come first, in their own order and also when none was served, so
 * the rows stay put while counts change; values it no longer has (a deleted variant) follow.
 */

export interface ValueCount {
  value: string;
  count: number;
}

export interface SplitRow {
  value: string;
  count: number;
  /** The share of all evaluations, 0 to 100. */
  percent: number;
}

/**
 * The rows of `values` (what the service counted) over `known` (the variant keys of a variant flag
 * with `""` for "no variant", or `"true"` and `"false"` for a boolean flag); the same value counted
 * twice is added up.
 */
export function valueSplit(values: readonly ValueCount[], known: readonly string[]): SplitRow[] {
  const counts = new Map<string, number>();
  for (const { value, count } of values) counts.set(value, (counts.get(value) ?? 0) + (Number.isFinite(count) && count > 0 ? count : 0));
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const knownSet = new Set(known);
  const others = [...counts.keys()].filter((value) => !knownSet.has(value)).sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  return [...new Set(known), ...others].map((value) => {
    const count = counts.get(value) ?? 0;
    return { value, count, percent: total === 0 ? 0 : (count / total) * 100 };
  });
}

/** The values a flag can serve, as `valueSplit` takes them. */
export function knownValues(flag: { type: string; variants?: ReadonlyArray<{ key: string }> }): string[] {
  if (flag.type === 'BOOLEAN_FLAG_TYPE') return ['true', 'false'];
  return (flag.variants ?? []).map((v) => v.key);
}

/**
 * The reasons a flag's evaluations give, as `valueSplit` takes them, in the order the split lists
 * them: a rule or rollout matched; none did, so the default applied (a variant flag without a
 * default variant serves nothing: Flipt's unknown reason); a variant flag was disabled (a disabled
 * boolean flag still walks its rollouts, its `enabled` being the default value).
 */
export function knownReasons(flag: { type: string; defaultVariant?: unknown }): string[] {
  if (flag.type === 'BOOLEAN_FLAG_TYPE') return ['MATCH_EVALUATION_REASON', 'DEFAULT_EVALUATION_REASON'];
  return ['MATCH_EVALUATION_REASON', flag.defaultVariant === undefined ? 'UNKNOWN_EVALUATION_REASON' : 'DEFAULT_EVALUATION_REASON', 'FLAG_DISABLED_EVALUATION_REASON'];
}

/** "60%", "33.3%", "<0.1%" for a share that rounds away, "0%" for none. */
export function formatPercent(percent: number): string {
  if (!Number.isFinite(percent) || percent <= 0) return '0%';
  if (percent < 0.1) return '<0.1%';
  if (percent > 99.9 && percent < 100) return '>99.9%';
  const rounded = Math.round(percent * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

/** How a value reads in the split: `""` is an evaluation that matched no variant. */
export function valueLabel(value: string): string {
  return value === '' ? 'No variant' : value;
}
