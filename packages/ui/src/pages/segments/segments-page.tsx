/** The segments of a namespace: searched and paged in the browser, with the "New segment" dialog. */
import type { Segment } from '@ensign/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { segments } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { KeyText } from '../../components/key-text.js';
import { PageHeader } from '../../components/page-header.js';
import { Pager } from '../../components/pager.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { matchTypeLabel, searchSegments } from '../../lib/segment-search.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { NewSegmentDialog } from './new-segment-dialog.js';
import './segments.css';
import { useAddressText } from '../../hooks/address-text.js';
import { useLock } from '../../hooks/permissions.js';
import { useTimeZone } from '../../hooks/time-zone.js';

const PAGE_SIZE = 25;

/** One page of segments; memoized, so a key typed in the search re-renders the field and not the table. */
const SegmentsTable = memo(function SegmentsTable({ ns, shown }: { ns: string; shown: readonly Segment[] }) {
  const zone = useTimeZone();
  const now = Date.now();
  return (
    <div className="table-wrap">
      <table className="table table-stacked segments-table">
        <thead>
          <tr>
            <th scope="col">Segment</th>
            <th scope="col">Match</th>
            <th scope="col">Constraints</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((segment) => (
            <tr key={segment.key}>
              <td data-label="Segment">
                <Link className="segment-link clamp-lines" to={paths.segment(ns, segment.key)} title={segment.name}>
                  {segment.name}
                </Link>
                <div className="muted">
                  <KeyText value={segment.key} />
                </div>
                {segment.description !== '' && (
                  <div className="segment-description muted clamp-lines" title={segment.description}>
                    {segment.description}
                  </div>
                )}
              </td>
              <td data-label="Match">
                <span className={segment.matchType === 'ANY_MATCH_TYPE' ? 'badge badge-warning' : 'badge badge-accent'}>{matchTypeLabel(segment.matchType)}</span>
              </td>
              <td data-label="Constraints">{segment.constraints.length}</td>
              <td data-label="Updated">
                <time dateTime={segment.updatedAt} title={absoluteTime(segment.updatedAt, zone)}>
                  {relativeTime(segment.updatedAt, now)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});

export function SegmentsPage() {
  const ns = useNamespace();
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const create = useLock('segment.create', ns);
  const list = useQuery({ queryKey: queryKeys.segments(ns), queryFn: () => segments.list(ns) });

  const [query, writeQuery] = useAddressText(params.get('q') ?? '', (q) => setParams(q === '' ? {} : { q }, { replace: true }));
  const setQuery = (q: string) => {
    setPage(0);
    writeQuery(q);
  };
  const newButton = (
    <button type="button" className="button button-primary" disabled={create.on} title={create.hint} onClick={() => setCreating(true)}>
      New segment
    </button>
  );

  const all = useMemo(() => list.data ?? [], [list.data]);
  // The list follows the search a moment after the field, so a key never waits for the table.
  const search = useDeferredValue(query);
  const found = useMemo(() => searchSegments(all, search), [all, search]);
  const current = Math.min(page, Math.max(0, Math.ceil(found.length / PAGE_SIZE) - 1));
  const shown = useMemo(() => found.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE), [found, current]);

  return (
    <>
      <PageHeader title="Segments" subtitle="Groups of entities, described by constraints on their context. Rules and rollouts of flags target them." actions={newButton} />
      <NewSegmentDialog ns={ns} open={creating} onClose={() => setCreating(false)} />
      {list.isPending ? (
        <Loading label="Loading segments…" />
      ) : list.isError ? (
        <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />
      ) : all.length === 0 ? (
        <div className="card">
          <EmptyState title="No segments yet" action={newButton}>
            A segment describes who a rule applies to, such as “customers on the pro plan in Europe”.
          </EmptyState>
        </div>
      ) : (
        <div className="card">
          <div className="card-body">
            <div className="toolbar">
              <input
                type="search"
                className="grow"
                aria-label="Search segments"
                placeholder="Search key, name, description or property"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
              <span className="muted">
                {found.length === all.length ? `${all.length} segment${all.length === 1 ? '' : 's'}` : `${found.length} of ${all.length}`}
              </span>
            </div>
            {found.length === 0 ? (
              <EmptyState
                title={`No segments match “${query}”`}
                action={
                  <button type="button" className="button" onClick={() => setQuery('')}>
                    Clear search
                  </button>
                }
              />
            ) : (
              <SegmentsTable ns={ns} shown={shown} />
            )}
            <Pager page={current} pageSize={PAGE_SIZE} total={found.length} onPage={setPage} />
          </div>
        </div>
      )}
    </>
  );
}
