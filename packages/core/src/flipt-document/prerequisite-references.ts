/**
 * The prerequisites of a set of document flags checked against the flags they may name: each
 * parent exists, a `variants` prerequisite names variants its (variant) parent has, and no chain
 * of prerequisites leads back to where it started. The decoder checks one document; the store's
 * import, the flags it writes beside the namespace's; declarative storage, each merged namespace.
 */
import type { FlagType } from '../enums.js';
import { documentError, type DocumentLocation } from './document-error.js';
import type { DocumentFlag } from './document-types.js';

/** What a prerequisite needs of the flag it names: its type, its variants' keys, the flags it requires in turn. */
export interface PrerequisiteParent {
  type: FlagType;
  variants: readonly string[];
  requires: readonly string[];
}

/** A document's flag with where it is: `path` (`flags[3]`) in the document at `at`. */
export interface PlacedFlag {
  flag: DocumentFlag;
  at: DocumentLocation;
  path: string;
}

export interface PrerequisiteScope {
  namespaceKey: string;
  /**
   * A flag other than the placed ones that a prerequisite may name; undefined when the namespace
   * has no such flag. Not given: those parents are left for whoever knows the namespace.
   */
  outside?: (flagKey: string) => PrerequisiteParent | undefined;
  /** Said after `no flag "k" in namespace "ns"` (that the import drops what the namespace had). */
  missingNote?: string;
}

/** Every flag of a document with its place. */
export const placedFlags = (flags: readonly DocumentFlag[], at: DocumentLocation): PlacedFlag[] =>
  flags.map((flag, i) => ({ flag, at, path: `flags[${i}]` }));

/** A document flag as a prerequisite sees it. */
export const prerequisiteParentOf = (flag: DocumentFlag): PrerequisiteParent => ({
  type: flag.type,
  variants: flag.variants.map((v) => v.key),
  requires: (flag.prerequisites ?? []).map((p) => p.flagKey),
});

/** Where a prerequisite fails, and why. */
export interface PrerequisiteProblem {
  at: DocumentLocation;
  path: string;
  reason: string;
}

const quoted = (keys: readonly string[]): string => keys.map((k) => JSON.stringify(k)).join(', ');

function parentProblem(flags: readonly PlacedFlag[], own: ReadonlyMap<string, PlacedFlag>, scope: PrerequisiteScope): PrerequisiteProblem | undefined {
  for (const { flag, at, path } of flags) {
    for (const [i, p] of (flag.prerequisites ?? []).entries()) {
      const placed = own.get(p.flagKey);
      const parent = placed === undefined ? scope.outside?.(p.flagKey) : prerequisiteParentOf(placed.flag);
      const itemPath = `${path}.prerequisites[${i}]`;
      if (parent === undefined) {
        if (scope.outside === undefined) continue;
        return { at, path: `${itemPath}.flag`, reason: `no flag ${JSON.stringify(p.flagKey)} in namespace ${JSON.stringify(scope.namespaceKey)}${scope.missingNote ?? ''}` };
      }
      if (p.variants === undefined) continue;
      if (parent.type !== 'VARIANT_FLAG_TYPE') return { at, path: `${itemPath}.variants`, reason: `flag ${JSON.stringify(p.flagKey)} is a boolean flag; ask for enabled: true or false` };
      const held = new Set(parent.variants);
      const missing = p.variants.filter((v) => !held.has(v));
      if (missing.length > 0) return { at, path: `${itemPath}.variants`, reason: `flag ${JSON.stringify(p.flagKey)} has no variant ${quoted(missing)}` };
    }
  }
  return undefined;
}

/**
 * The first cycle of prerequisites reachable from the placed flags (in their order), as the keys
 * along it; undefined when there is none. Iterative, so a long chain cannot overflow the stack.
 */
function firstCycle(flags: readonly PlacedFlag[], requiresOf: (key: string) => readonly string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  for (const { flag } of flags) {
    if (state.has(flag.key)) continue;
    state.set(flag.key, 'open');
    const stack = [{ key: flag.key, parents: requiresOf(flag.key), next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const parent = top.parents[top.next++];
      if (parent === undefined) {
        state.set(top.key, 'done');
        stack.pop();
        continue;
      }
      const seen = state.get(parent);
      if (seen === 'open') return stack.slice(stack.findIndex((s) => s.key === parent)).map((s) => s.key);
      if (seen === 'done') continue;
      state.set(parent, 'open');
      stack.push({ key: parent, parents: requiresOf(parent), next: 0 });
    }
  }
  return undefined;
}

/** The cycle named from its first placed flag (`a → b → a`), at that flag's prerequisite on the next. */
function cycleProblem(cycle: readonly string[], flags: readonly PlacedFlag[]): PrerequisiteProblem {
  const positions = new Map(flags.map((f, i) => [f.flag.key, i]));
  const start = cycle.reduce((best, key, i) => ((positions.get(key) ?? Infinity) < (positions.get(cycle[best]!) ?? Infinity) ? i : best), 0);
  const keys = [...cycle.slice(start), ...cycle.slice(0, start)];
  const placed = flags[positions.get(keys[0]!) ?? 0]!;
  const index = placed.flag.prerequisites?.findIndex((p) => p.flagKey === keys[1 % keys.length]) ?? 0;
  return { at: placed.at, path: `${placed.path}.prerequisites[${index}].flag`, reason: `forms a cycle: ${[...keys, keys[0]].join(' → ')}` };
}

/** The first prerequisite that names a missing parent or variant, or closes a cycle; undefined when there is none. */
export function prerequisiteProblem(flags: readonly PlacedFlag[], scope: PrerequisiteScope): PrerequisiteProblem | undefined {
  if (!flags.some((f) => f.flag.prerequisites !== undefined)) return undefined;
  const own = new Map(flags.map((f) => [f.flag.key, f]));
  const missing = parentProblem(flags, own, scope);
  if (missing !== undefined) return missing;
  const requiresOf = (key: string): readonly string[] => {
    const placed = own.get(key);
    return placed === undefined ? (scope.outside?.(key)?.requires ?? []) : (placed.flag.prerequisites ?? []).map((p) => p.flagKey);
  };
  const cycle = firstCycle(flags, requiresOf);
  return cycle === undefined ? undefined : cycleProblem(cycle, flags);
}

/** Throws the first problem of `prerequisiteProblem` as a 400 naming the document and path. */
export function checkPrerequisiteReferences(flags: readonly PlacedFlag[], scope: PrerequisiteScope): void {
  const problem = prerequisiteProblem(flags, scope);
  if (problem !== undefined) throw documentError(problem.at, problem.path, problem.reason);
}
