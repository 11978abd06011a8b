/**
 * A namespace's change requests: its review policy, then the requests (open ones first; the state
 * filter is kept in the address), each with its state, author, size and approvals, newest first.
 */
import { CHANGE_REQUEST_STATES, type ChangeRequestState } from '@ensign/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { changeRequests } from '../../api/change-requests.js';
import { queryKeys } from '../../api/query-keys.js';
import { PageHeader } from '../../components/page-header.js';
import { PromoteAction } from '../../components/promote-dialog.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { useChangePolicy } from '../../hooks/change-policy.js';
import { useNow } from '../../hooks/now.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { actorLabel } from '../../lib/change-summary.js';
import { approvalsText, type ChangeRequestView, OPEN_STATES, STATE_BADGE, STATE_LABEL } from '../../lib/change-requests.js';
import { countNoun } from '../../lib/count-noun.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { ChangePolicyCard } from './change-policy-card.js';
import './change-requests.css';

/** The filter's choices: the open states (the default), every state, or one. */
type Filter = 'open' | 'all' | ChangeRequestState;

const filterOf = (value: string | null): Filter => (value === 'all' || (CHANGE_REQUEST_STATES as readonly string[]).includes(value ?? '') ? (value as Filter) : 'open');
const statesOf = (filter: Filter): readonly ChangeRequestState[] => (filter === 'open' ? OPEN_STATES : filter === 'all' ? [] : [filter]);

function RequestItem({ ns, request, required, now }: { ns: string; request: ChangeRequestView; required: number; now: number }) {
  const zone = useTimeZone();
  return (
    <li className="cr-item">
      <div className="cr-item-head">
        <Link to={paths.changeRequest(ns, request.id)} className="cr-item-title clamp-lines" title={request.title}>
          {request.title}
        </Link>
        <span className={STATE_BADGE[request.state]}>{STATE_LABEL[request.state]}</span>
      </div>
      <p className="cr-item-meta muted">
        <span>by {actorLabel(request.author)}</span>
        <span>{countNoun(request.changes.length, 'change')}</span>
        {(request.state === 'in_review' || request.state === 'approved') && <span>{approvalsText(request.approvals.length, required)}</span>}
        <span>
          updated{' '}
          <time dateTime={request.updatedAt} title={absoluteTime(request.updatedAt, zone)}>
            {relativeTime(request.updatedAt, now)}
          </time>
        </span>
      </p>
    </li>
  );
}

export function ChangeRequestsPage() {
  const ns = useNamespace();
  const now = useNow(30_000);
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params.get('state'));
  const states = statesOf(filter);
  const list = useQuery({ queryKey: queryKeys.changeRequests(ns, states), queryFn: () => changeRequests.list(ns, states), placeholderData: keepPreviousData });
  const policy = useChangePolicy(ns);
  const required = policy.data?.requiredApprovals ?? 0;

  let body;
  if (list.isPending) body = <Loading label="Loading the change requests…" />;
  else if (list.data === undefined) body = <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />;
  else if (list.data.length === 0)
    body = (
      <EmptyState title={filter === 'open' ? 'No open change requests' : 'No change requests match'}>
        {required > 0 ? 'Edits of this namespace start a draft; submitted drafts wait here for review.' : 'A change request proposes edits of this namespace for others to review before they apply.'}
      </EmptyState>
    );
  else
    body = (
      <ul className={list.isPlaceholderData ? 'cr-list stale' : 'cr-list'} aria-label="Change requests">
        {list.data.map((request) => (
          <RequestItem key={request.id} ns={ns} request={request} required={required} now={now} />
        ))}
      </ul>
    );

  return (
    <>
      <PageHeader
        title="Change requests"
        subtitle={`Changes to ${ns} proposed for review, and the review they need.`}
        actions={<PromoteAction from={ns} />}
      />
      <ChangePolicyCard ns={ns} />
      <section className="card" aria-labelledby="change-requests-title">
        <div className="card-header">
          <h2 id="change-requests-title">Requests</h2>
          <select
            aria-label="State"
            className="cr-filter"
            value={filter}
            onChange={(e) => setParams(e.target.value === 'open' ? {} : { state: e.target.value }, { replace: true })}
          >
            <option value="open">Open</option>
            <option value="all">All states</option>
            {CHANGE_REQUEST_STATES.map((state) => (
              <option key={state} value={state}>
                {STATE_LABEL[state]}
              </option>
            ))}
          </select>
        </div>
        <div className="card-body">{body}</div>
      </section>
    </>
  );
}
