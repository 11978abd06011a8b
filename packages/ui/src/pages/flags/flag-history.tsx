/** A flag's History tab: its changes and those of its variants, rules, distributions and rollouts. */
import type { Flag } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { rollouts, rules } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { HistoryCard } from '../../components/change-feed.js';
import { FLAG_HISTORY_TYPES } from '../../lib/change-summary.js';

export function FlagHistory({ ns, flag }: { ns: string; flag: Flag }) {
  const variantFlag = flag.type === 'VARIANT_FLAG_TYPE';
  // The current rules or rollouts name what a reorder or a distribution names by id.
  const ruleList = useQuery({ queryKey: queryKeys.rules(ns, flag.key), queryFn: () => rules.list(ns, flag.key), enabled: variantFlag });
  const rolloutList = useQuery({ queryKey: queryKeys.rollouts(ns, flag.key), queryFn: () => rollouts.list(ns, flag.key), enabled: !variantFlag });
  const known = useMemo(() => [flag.variants, ruleList.data ?? [], rolloutList.data ?? []], [flag.variants, ruleList.data, rolloutList.data]);
  const filter = useMemo(() => ({ types: FLAG_HISTORY_TYPES, key: flag.key }), [flag.key]);
  const parts = variantFlag ? 'variants, rules and distributions' : 'rollouts';
  return <HistoryCard ns={ns} filter={filter} known={known} about={`Changes to this flag and its ${parts}, newest first.`} />;
}
