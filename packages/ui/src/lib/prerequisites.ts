/**
 * A flag's prerequisites (the flags that must hold for it to be served) and its dependents (the
 * flags that require it), in the words the flag page uses, and the lists an edit sends.
 */
import type { Flag, Prerequisite } from '@ensign/core';

/** What a prerequisite asks of its parent: "is on", "is off", "serves beta" or "serves one of a, b". */
export function conditionText(prerequisite: Prerequisite): string {
  const variants = prerequisite.variants ?? [];
  if (variants.length === 1) return `serves ${variants[0]}`;
  if (variants.length > 1) return `serves one of ${variants.join(', ')}`;
  return prerequisite.enabled === false ? 'is off' : 'is on';
}

/** What did not hold when a prerequisite failed: "was not on", "did not serve one of a, b". */
export function unmetText(prerequisite: Prerequisite): string {
  const met = conditionText(prerequisite);
  return met.startsWith('serves ') ? `did not serve ${met.slice('serves '.length)}` : `was not ${met.slice('is '.length)}`;
}

/** The flags of `flags` whose prerequisites name `flagKey`, by key, each with what it asks of it. */
export function dependentsOf(flagKey: string, flags: readonly Flag[]): Array<{ flag: Flag; prerequisite: Prerequisite }> {
  return flags
    .flatMap((flag) => {
      const prerequisite = flag.prerequisites?.find((p) => p.flagKey === flagKey);
      return prerequisite === undefined ? [] : [{ flag, prerequisite }];
    })
    .sort((a, b) => a.flag.key.localeCompare(b.flag.key));
}

/** The list with `added` in place of the one on the same parent, or after the others. */
export function withPrerequisite(list: readonly Prerequisite[] | undefined, added: Prerequisite): Prerequisite[] {
  const current = list ?? [];
  return current.some((p) => p.flagKey === added.flagKey) ? current.map((p) => (p.flagKey === added.flagKey ? added : p)) : [...current, added];
}

/** The list without the prerequisite on `flagKey` (`[]` clears them all on the service). */
export const withoutPrerequisite = (list: readonly Prerequisite[] | undefined, flagKey: string): Prerequisite[] => (list ?? []).filter((p) => p.flagKey !== flagKey);

/** What the add dialog asks of the parent: on or off, or (a variant flag) one of some variants. */
export type ConditionChoice = 'on' | 'off' | 'variants';

/** The prerequisite a choice makes; undefined when it is not complete (no variant picked). */
export function prerequisiteOf(flagKey: string, choice: ConditionChoice, variants: readonly string[]): Prerequisite | undefined {
  if (flagKey === '') return undefined;
  if (choice === 'variants') return variants.length === 0 ? undefined : { flagKey, variants: [...variants] };
  return { flagKey, enabled: choice === 'on' };
}

/** The flags that may become parents of `flag`: the namespace's others, not already among its prerequisites, by key. */
export function parentCandidates(flag: Flag, flags: readonly Flag[]): Flag[] {
  const taken = new Set((flag.prerequisites ?? []).map((p) => p.flagKey));
  return flags.filter((f) => f.key !== flag.key && !taken.has(f.key)).sort((a, b) => a.key.localeCompare(b.key));
}
