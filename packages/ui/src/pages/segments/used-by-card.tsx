/** The flags whose rules or rollouts use a segment, each linked to its flag page. */
import { Link } from 'react-router';
import { KeyText } from '../../components/key-text.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { paths } from '../../layout/namespace.js';
import { usesByFlag } from '../../lib/segment-uses.js';
import type { SegmentUse } from '../../lib/user-messages.js';
import { useSegmentUses } from './use-segment-uses.js';

const useLabel = (use: SegmentUse): string => `${use.kind === 'rule' ? 'Rule' : 'Rollout'} ${use.position}`;

export function UsedByCard({ ns, segmentKey }: { ns: string; segmentKey: string }) {
  const uses = useSegmentUses(ns, segmentKey);
  return (
    <section className="card" aria-labelledby="used-by-title">
      <div className="card-header">
        <div>
          <h2 id="used-by-title">Used by</h2>
          <p>The rules and rollouts that target this segment. It can be deleted only once none does.</p>
        </div>
      </div>
      <div className="card-body">
        {uses.isPending ? (
          <Loading label="Finding the flags that use it…" />
        ) : uses.isError ? (
          <ErrorBanner error={uses.error} onRetry={() => void uses.refetch()} />
        ) : uses.data.length === 0 ? (
          <EmptyState title="Not used by any flag">No rule or rollout targets this segment.</EmptyState>
        ) : (
          <ul className="used-by-list" aria-label="Flags using this segment">
            {usesByFlag(uses.data).map((group) => (
              <li key={group.flagKey}>
                <Link to={paths.flag(ns, group.flagKey)} className="clamp-lines" title={group.flagName || group.flagKey}>
                  {group.flagName === '' ? group.flagKey : group.flagName}
                </Link>{' '}
                <KeyText value={group.flagKey} />
                <span className="muted"> · {group.uses.map(useLabel).join(', ')}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
