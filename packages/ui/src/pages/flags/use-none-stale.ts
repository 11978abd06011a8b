/** Why "Stale only" leaves the flags list empty, once the usage listing is there to say. */
import { useMemo } from 'react';
import { useTimeZone } from '../../hooks/time-zone.js';
import { type FlagQuery, type IndexedFlag, selectFlags } from '../../lib/flag-list.js';
import { noneStaleFacts, noneStaleText } from '../../lib/none-stale.js';
import { parseGoDuration } from '../../lib/usage-window.js';
import type { useNamespaceUsage } from './use-namespace-usage.js';

/** Only asked when `empty` (nothing matches) with "Stale only" on; undefined when the facts explain nothing. */
export function useNoneStale(index: readonly IndexedFlag[], query: FlagQuery, usage: ReturnType<typeof useNamespaceUsage>, empty: boolean) {
  const timeZone = useTimeZone();
  const { byFlag, serverWindow } = usage;
  const { windowText } = usage.column;
  const { search, type, enabled, stale, window } = query;
  return useMemo(() => {
    if (!empty || !stale || byFlag === undefined) return undefined;
    const windowMs = parseGoDuration(window !== '' ? window : (serverWindow ?? ''));
    if (windowMs === undefined) return undefined;
    const keys = selectFlags(index, { search, type, enabled, stale: false, window, sort: 'key' }, byFlag).map((flag) => flag.key);
    const filtered = search !== '' || type !== 'all' || enabled !== 'all';
    return noneStaleText(noneStaleFacts(keys, byFlag, windowMs), { windowText, filtered, now: Date.now(), timeZone });
  }, [empty, index, search, type, enabled, stale, window, byFlag, serverWindow, windowText, timeZone]);
}
