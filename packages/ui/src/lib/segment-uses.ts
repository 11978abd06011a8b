/** Which rules and rollouts of a namespace's flags use a segment, in the order their flags show them. */
import type { Rollout, Rule } from '@ensign/core';
import type { SegmentUse } from './user-messages.js';
import { segmentKeysOf } from './segment-ref.js';

/** A flag with its rules (variant flags) or rollouts (boolean flags). */
export interface FlagTargeting {
  key: string;
  name: string;
  rules: readonly Rule[];
  rollouts: readonly Rollout[];
}

const byRank = <T extends { rank: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.rank - b.rank);

/** The uses of `segmentKey`, flag by flag (by key), rules before rollouts, each by its position (1-based). */
export function segmentUses(segmentKey: string, flags: readonly FlagTargeting[]): SegmentUse[] {
  const uses: SegmentUse[] = [];
  for (const flag of [...flags].sort((a, b) => a.key.localeCompare(b.key))) {
    byRank(flag.rules).forEach((rule, i) => {
      if (segmentKeysOf(rule).includes(segmentKey)) uses.push({ flagKey: flag.key, flagName: flag.name, kind: 'rule', position: i + 1 });
    });
    byRank(flag.rollouts).forEach((rollout, i) => {
      if (rollout.segment !== undefined && segmentKeysOf(rollout.segment).includes(segmentKey)) uses.push({ flagKey: flag.key, flagName: flag.name, kind: 'rollout', position: i + 1 });
    });
  }
  return uses;
}

/** The uses grouped by flag, in order: what the segment page lists. */
export function usesByFlag(uses: readonly SegmentUse[]): Array<{ flagKey: string; flagName: string; uses: SegmentUse[] }> {
  const groups = new Map<string, { flagKey: string; flagName: string; uses: SegmentUse[] }>();
  for (const use of uses) {
    const group = groups.get(use.flagKey) ?? { flagKey: use.flagKey, flagName: use.flagName, uses: [] };
    group.uses.push(use);
    groups.set(use.flagKey, group);
  }
  return [...groups.values()];
}
