/**
 * A flag's Usage tab: evaluations over a range ending now (the range kept in the address), what it
 * served and when it was last asked for, refreshed every few seconds unless paused. A service that
 * counts no evaluations says so instead.
 */
import type { Flag } from '@ensign/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { isUsageUnavailable } from '../../../api/endpoints.js';
import { EmptyState, ErrorBanner } from '../../../components/status.js';
import { useAddressChoice } from '../../../hooks/address-choice.js';
import { DEFAULT_USAGE_RANGE, rangeLabel, readUsageRange, type UsageRange } from '../../../lib/usage-range.js';
import { ServedCard } from './served-card.js';
import { TimelineCard } from './timeline-card.js';
import { useFlagUsage } from './use-flag-usage.js';
import { UsageToolbar } from './usage-toolbar.js';
import './usage.css';

export function FlagUsageTab({ ns, flag }: { ns: string; flag: Flag }) {
  const [params, setParams] = useSearchParams();
  const [range, setRange] = useAddressChoice(readUsageRange(params.get('range')), (next: UsageRange) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === DEFAULT_USAGE_RANGE) updated.delete('range');
        else updated.set('range', next);
        return updated;
      },
      { replace: true },
    ),
  );
  const [paused, setPaused] = useState(false);
  const usage = useFlagUsage(ns, flag.key, range, paused);

  if (isUsageUnavailable(usage.error)) {
    return (
      <div className="card">
        <EmptyState title="Usage is not available">This server does not count evaluations, so it cannot show how this flag is used.</EmptyState>
      </div>
    );
  }

  const data = usage.data;
  return (
    <div className={usage.isPlaceholderData ? 'flag-usage stale' : 'flag-usage'} aria-busy={usage.isFetching}>
      <UsageToolbar range={range} onRange={setRange} paused={paused} onPaused={setPaused} />
      {usage.error !== null && <ErrorBanner error={usage.error} onRetry={() => void usage.refetch()} />}
      <div className="usage-grid">
        <TimelineCard range={range} timeline={data?.timeline} total={data?.summary.evaluations} pending={usage.isPending} />
        <ServedCard flag={flag} rangeText={rangeLabel(range)} summary={data?.summary} now={Date.now()} />
      </div>
    </div>
  );
}
