/**
 * One change request: its title, description, state and author; the review (approvals against the
 * policy, and what the caller may do in its state: submit, approve the changes shown, reject,
 * apply now or at a time, cancel); the changes, shown as the History tab shows changes (the diff
 * they would make now while the request is open, or why they no longer apply); the discussion.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.js';
import { changeRequests } from '../../api/change-requests.js';
import { history } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { ChangeDiffList } from '../../components/change-diff-list.js';
import { PageHeader } from '../../components/page-header.js';
import { ErrorBanner, Loading, NotFound } from '../../components/status.js';
import { useReview } from '../../hooks/change-policy.js';
import { useNow } from '../../hooks/now.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { actorLabel } from '../../lib/change-summary.js';
import { type ChangeRequestView, isOpen, STATE_BADGE, STATE_LABEL } from '../../lib/change-requests.js';
import { countNoun } from '../../lib/count-noun.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { ChangeRequestDetailsDialog } from './change-request-details-dialog.js';
import { ProposedCalls } from './proposed-calls.js';
import { RequestDiscussion } from './request-discussion.js';
import { RequestReview } from './request-review.js';
import { useRequestMutation } from './use-request-mutation.js';
import './change-requests.css';

/** How many of the newest changes of the namespace are searched for those an applied request made. */
const APPLIED_SEARCH = 200;

/** What an applied request changed: the stored changes of its revision, when they are among the newest. */
function AppliedRecords({ ns, id, revision }: { ns: string; id: string; revision: number }) {
  const filter = useMemo(() => ({}), []);
  const page = useQuery({ queryKey: [...queryKeys.history(ns, filter), 'applied', revision], queryFn: ({ signal }) => history.list(ns, filter, '', APPLIED_SEARCH, signal) });
  const records = useMemo(() => (page.data?.events ?? []).filter((e) => (e.changeRequest === undefined ? e.revision === revision : e.changeRequest.id === id)).reverse(), [page.data, id, revision]);
  if (records.length === 0) return null;
  return <ChangeDiffList ns={ns} records={records} />;
}

/**
 * Why the changes cannot be applied as they are: one no longer applies, or what they were written
 * against changed since. The latter is settled by writing them again over the current state
 * (re-basing), which asks for approval again.
 */
function ConflictBanner({ ns, request }: { ns: string; request: ChangeRequestView }) {
  const rebase = useRequestMutation(
    ns,
    () => changeRequests.replace(ns, request.id, { title: request.title, description: request.description, changes: request.changes }),
    () => 'Changes written again over the current state',
  );
  const moved = request.diff !== undefined;
  return (
    <div className="error-banner" role="alert">
      <span>
        <strong>{moved ? 'Changed since the request was written:' : 'These changes no longer apply:'}</strong> {request.conflict}
        {rebase.error !== null && <> ({rebase.error instanceof Error ? rebase.error.message : String(rebase.error)})</>}
      </span>
      {moved && (
        <button type="button" className="button button-small" disabled={rebase.isPending} onClick={() => rebase.mutate(undefined)}>
          Re-base
        </button>
      )}
    </div>
  );
}

function Changes({ ns, request, editable }: { ns: string; request: ChangeRequestView; editable: boolean }) {
  const open = isOpen(request.state);
  return (
    <section className="card" aria-labelledby="cr-changes-title">
      <div className="card-header">
        <div>
          <h2 id="cr-changes-title">Changes</h2>
          <p>
            {countNoun(request.changes.length, 'proposed change')}
            {open ? ', and what they would change if applied now.' : request.state === 'applied' ? `, applied at revision ${request.appliedRevision ?? '?'}.` : '.'}
          </p>
        </div>
      </div>
      <div className="card-body">
        {request.conflict !== undefined && <ConflictBanner ns={ns} request={request} />}
        {request.state === 'applied' && request.appliedRevision !== undefined && <AppliedRecords ns={ns} id={request.id} revision={request.appliedRevision} />}
        {open && request.diff !== undefined && (request.diff.length === 0 ? <p className="muted">Applied now, these changes would change nothing.</p> : <ChangeDiffList ns={ns} records={request.diff} />)}
        <ProposedCalls ns={ns} request={request} editable={editable} expanded={request.state === 'rejected' || request.state === 'cancelled' || (open && request.diff === undefined)} />
      </div>
    </section>
  );
}

export function ChangeRequestPage() {
  const ns = useNamespace();
  const id = useParams().requestId ?? '';
  const zone = useTimeZone();
  const now = useNow(30_000);
  const review = useReview(ns);
  const [editing, setEditing] = useState({ open: false, key: 0 });
  const query = useQuery({ queryKey: queryKeys.changeRequest(ns, id), queryFn: () => changeRequests.get(ns, id) });
  const back = <Link to={paths.changeRequests(ns)}>See the change requests</Link>;

  if (query.isPending) return <Loading label="Loading the change request…" />;
  if (query.error instanceof ApiError && query.error.status === 404) return <NotFound what="Change request" back={back} />;
  if (query.data === undefined) return <ErrorBanner error={query.error} onRetry={() => void query.refetch()} />;
  const request = query.data;
  const editable = request.state === 'draft';

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={paths.changeRequests(ns)}>Change requests</Link> / <span>{request.title}</span>
      </nav>
      <PageHeader
        title={request.title}
        subtitle={
          <span className="cr-meta">
            <span className={STATE_BADGE[request.state]} aria-label={`State: ${STATE_LABEL[request.state]}`}>
              {STATE_LABEL[request.state]}
            </span>
            <span>
              by {actorLabel(request.author)}, opened{' '}
              <time dateTime={request.createdAt} title={absoluteTime(request.createdAt, zone)}>
                {relativeTime(request.createdAt, now)}
              </time>
            </span>
          </span>
        }
        actions={
          editable ? (
            <button type="button" className="button" onClick={() => setEditing((e) => ({ open: true, key: e.key + 1 }))}>
              Edit title and description
            </button>
          ) : undefined
        }
      >
        {request.description !== '' && <p className="cr-description">{request.description}</p>}
      </PageHeader>
      <RequestReview ns={ns} request={request} review={review} now={now} />
      <Changes ns={ns} request={request} editable={editable} />
      <RequestDiscussion ns={ns} request={request} now={now} />
      <ChangeRequestDetailsDialog key={editing.key} ns={ns} request={request} open={editing.open} onClose={() => setEditing((e) => ({ ...e, open: false }))} />
    </>
  );
}
