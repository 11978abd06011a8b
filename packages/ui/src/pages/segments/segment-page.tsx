/** One segment: its header (name, key, match type, delete), then its Overview tab (details, constraints) or its History tab. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.js';
import { segments } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { useConfirm } from '../../components/confirm.js';
import { HistoryCard } from '../../components/change-feed.js';
import { CopyButton } from '../../components/copy-button.js';
import { KeyBreaks, KeyText } from '../../components/key-text.js';
import { PageHeader } from '../../components/page-header.js';
import { PageTabs } from '../../components/page-tabs.js';
import { ErrorBanner, Loading, MessageText, NotFound } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useLock } from '../../hooks/permissions.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { SEGMENT_HISTORY_TYPES } from '../../lib/change-summary.js';
import { matchTypeLabel } from '../../lib/segment-search.js';
import { messageText, segmentInUse } from '../../lib/user-messages.js';
import { shownError } from '../../api/user-error.js';
import { CopySegmentAction } from './copy-segment-dialog.js';
import { ConstraintsCard } from './constraints-card.js';
import { SegmentDetailsCard } from './segment-details-card.js';
import { UsedByCard } from './used-by-card.js';
import { segmentUsesKey, useSegmentUses } from './use-segment-uses.js';
import './segments.css';

export function SegmentPage({ tab = 'overview' }: { tab?: 'overview' | 'history' }) {
  const ns = useNamespace();
  const segmentKey = useParams().segmentKey ?? '';
  const navigate = useNavigate();
  const queries = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const deleting = useLock('segment.delete', ns);
  const segment = useQuery({ queryKey: queryKeys.segment(ns, segmentKey), queryFn: () => segments.get(ns, segmentKey) });
  const uses = useSegmentUses(ns, segmentKey);
  const historyFilter = useMemo(() => ({ types: SEGMENT_HISTORY_TYPES, key: segmentKey }), [segmentKey]);
  const remove = useMutation({
    mutationFn: () => segments.delete(ns, segmentKey),
    onSuccess: async (result) => {
      // In a draft: the segment stays until the draft is applied.
      if (isDrafted(result)) return;
      queries.removeQueries({ queryKey: queryKeys.segment(ns, segmentKey) });
      await refreshList(queries, queryKeys.segments(ns));
      toast(`Segment "${segmentKey}" deleted`);
      void navigate(paths.segments(ns));
    },
    // Refused while in use: the list of users may be older than the refusal.
    onError: () => queries.invalidateQueries({ queryKey: segmentUsesKey(ns, segmentKey) }),
  });

  const back = (
    <>
      <Link to={paths.segments(ns)}>Back to segments</Link> · <Link to={paths.activity(ns, segmentKey)}>See its changes</Link>
    </>
  );
  if (segment.isPending) return <Loading label="Loading segment…" />;
  if (segment.isError) {
    if (segment.error instanceof ApiError && segment.error.status === 404) return <NotFound what={`Segment "${segmentKey}"`} back={back} />;
    return <ErrorBanner error={segment.error} onRetry={() => void segment.refetch()} />;
  }

  const data = segment.data;
  // The service refuses to delete a segment in use: the button is not offered then, and says why.
  const inUse = uses.data !== undefined && uses.data.length > 0 ? uses.data : undefined;
  const blockedId = `segment-${data.key}-in-use`;
  const askDelete = async () => {
    const ok = await confirm({
      title: 'Delete segment',
      message: (
        <>
          Delete the segment <strong>{data.name}</strong> (<KeyText value={data.key} />) and its {data.constraints.length} constraint{data.constraints.length === 1 ? '' : 's'}? No rule or
          rollout uses it.
        </>
      ),
      action: 'Delete segment',
    });
    if (ok) remove.mutate();
  };

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={paths.segments(ns)}>Segments</Link> / <span><KeyBreaks value={data.key} /></span>
      </nav>
      <PageHeader
        title={data.name}
        actions={
          <>
            <CopySegmentAction ns={ns} segment={data} />
            <button
              type="button"
              className="button button-ghost danger-text"
              disabled={deleting.on || remove.isPending || inUse !== undefined || uses.isPending}
              title={deleting.hint ?? (inUse === undefined ? undefined : messageText(segmentInUse(ns, data.key, inUse)))}
              aria-describedby={inUse === undefined ? undefined : blockedId}
              onClick={() => void askDelete()}
            >
              Delete segment
            </button>
          </>
        }
      >
        <p className="page-subtitle segment-subtitle">
          <KeyText value={data.key} />
          <CopyButton text={data.key} label="Copy key" className="button button-small button-ghost" />
          <span className={data.matchType === 'ANY_MATCH_TYPE' ? 'badge badge-warning' : 'badge badge-accent'}>Match {matchTypeLabel(data.matchType).toLowerCase()}</span>
        </p>
      </PageHeader>
      {inUse !== undefined && (
        <p className="notice segment-in-use" id={blockedId} role="note">
          It cannot be deleted: <MessageText message={segmentInUse(ns, data.key, inUse)} />
        </p>
      )}
      <ErrorBanner error={shownError(remove.error, uses.data === undefined ? undefined : { segmentUses: uses.data })} />
      <PageTabs
        label="Segment sections"
        tabs={[
          { label: 'Overview', to: paths.segment(ns, data.key) },
          { label: 'History', to: paths.segmentHistory(ns, data.key) },
        ]}
      />
      {tab === 'history' ? (
        <HistoryCard ns={ns} filter={historyFilter} known={data.constraints} about="Changes to this segment and its constraints, newest first." />
      ) : (
        <>
          <SegmentDetailsCard key={data.key} ns={ns} segment={data} />
          <ConstraintsCard ns={ns} segment={data} />
          <UsedByCard ns={ns} segmentKey={data.key} />
        </>
      )}
    </>
  );
}
