/** The rules and rollouts that use a segment, read from its namespace's flags through the public API. */
import type { Flag } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { flags, rollouts, rules } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { type FlagTargeting, segmentUses } from '../../lib/segment-uses.js';

/** Under the segment's key, so that any write to the namespace refreshes it. */
export const segmentUsesKey = (ns: string, segmentKey: string) => [...queryKeys.segment(ns, segmentKey), 'used-by'] as const;

async function targetingOf(ns: string, flag: Flag): Promise<FlagTargeting> {
  const variant = flag.type !== 'BOOLEAN_FLAG_TYPE';
  const [flagRules, flagRollouts] = await Promise.all([variant ? rules.list(ns, flag.key) : [], variant ? [] : rollouts.list(ns, flag.key)]);
  return { key: flag.key, name: flag.name, rules: flagRules, rollouts: flagRollouts };
}

export function useSegmentUses(ns: string, segmentKey: string) {
  return useQuery({
    queryKey: segmentUsesKey(ns, segmentKey),
    queryFn: async () => {
      const all = await flags.list(ns);
      return segmentUses(segmentKey, await Promise.all(all.map((flag) => targetingOf(ns, flag))));
    },
  });
}
