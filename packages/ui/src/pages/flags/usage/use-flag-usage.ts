/**
 * A flag's usage over a range ending now: its timeline and what it served, both asked for the same
 * `from` and `to`, and asked again every few seconds while the page is visible and not paused.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/client.js';
import { type EvaluationTimeline, type FlagUsageSummary, isUsageUnavailable, type TimeBounds, usage } from '../../../api/endpoints.js';
import { queryKeys } from '../../../api/query-keys.js';
import { type UsageRange, usageBounds } from '../../../lib/usage-range.js';

/** How often the tab refreshes while it is visible. */
export const USAGE_POLL_MS = 5_000;

export interface FlagUsageData {
  bounds: TimeBounds;
  timeline: EvaluationTimeline;
  summary: FlagUsageSummary;
}

export function useFlagUsage(ns: string, flagKey: string, range: UsageRange, paused: boolean) {
  return useQuery({
    queryKey: queryKeys.flagUsage(ns, flagKey, range),
    queryFn: async ({ signal }): Promise<FlagUsageData> => {
      const bounds = usageBounds(range, Date.now());
      const [timeline, summary] = await Promise.all([usage.timeline(ns, flagKey, bounds, signal), usage.flag(ns, flagKey, bounds, signal)]);
      return { bounds, timeline, summary };
    },
    // Another range shows the last one's data, dimmed, until its own arrives: nothing jumps.
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => (paused || isUsageUnavailable(query.state.error) ? false : USAGE_POLL_MS),
    // A service without usage will not grow it by being asked again.
    retry: (failures, error) => !isUsageUnavailable(error) && !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
}
