/** The namespace's usage listing over a window, keyed by flag, for the flags list. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiError } from '../../api/client.js';
import { type FlagUsage, isUsageUnavailable, usage } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { windowLabel } from '../../lib/usage-window.js';
import type { UsageColumn } from './flags-table.js';

export function useNamespaceUsage(ns: string, window: string) {
  const listing = useQuery({
    queryKey: queryKeys.usage(ns, window),
    queryFn: ({ signal }) => usage.namespace(ns, window, signal),
    placeholderData: keepPreviousData,
    retry: (failures, error) => !isUsageUnavailable(error) && !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
  const byFlag = useMemo(() => (listing.data === undefined ? undefined : new Map<string, FlagUsage>(listing.data.flags.map((f) => [f.flagKey, f]))), [listing.data]);
  const serverWindow = listing.data?.window;
  const column: UsageColumn = useMemo(
    () => ({
      state: byFlag !== undefined ? 'ready' : listing.isPending ? 'loading' : 'missing',
      byFlag,
      windowText: windowLabel(window !== '' ? window : (serverWindow ?? '')),
    }),
    [byFlag, listing.isPending, window, serverWindow],
  );
  return { listing, byFlag, serverWindow, column, unavailable: isUsageUnavailable(listing.error) };
}
