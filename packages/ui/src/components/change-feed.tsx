/**
 * Stored changes of a namespace, newest first, a page at a time ("Load older"), with the loading,
 * empty and failed states of every list. The flag and segment History tabs and the Activity page use it.
 */
import type { AuditPage } from '@ensign/core';
import { type InfiniteData, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo } from 'react';
import { history, type HistoryFilter } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { labelsFor } from '../lib/change-summary.js';
import { ChangeEntry } from './change-entry.js';
import { EmptyState, ErrorBanner, Loading } from './status.js';

/** Changes per page: a screenful or two. */
const PAGE_SIZE = 25;
const NOTHING_KNOWN: readonly unknown[] = [];

export interface ChangeFeedProps {
  ns: string;
  filter: HistoryFilter;
  /** What the page holds now (the flag's variants, its rules), to name what changes name by id. */
  known?: readonly unknown[];
  /** Link each change to its flag or segment (the activity feed). */
  showOwner?: boolean;
  /** What the empty state says when nothing matches (a filter), instead of "No changes yet". */
  emptyTitle?: string;
  /** A button in the empty state (clear the filters). */
  emptyAction?: ReactNode;
}

const entriesOf = (data: InfiniteData<AuditPage> | undefined) => data?.pages.flatMap((page) => page.events) ?? [];

export function ChangeFeed({ ns, filter, known = NOTHING_KNOWN, showOwner = false, emptyTitle = 'No changes yet', emptyAction }: ChangeFeedProps) {
  const feed = useInfiniteQuery({
    queryKey: queryKeys.history(ns, filter),
    queryFn: ({ pageParam, signal }) => history.list(ns, filter, pageParam, PAGE_SIZE, signal),
    initialPageParam: '',
    getNextPageParam: (last: AuditPage) => (last.nextPageToken === '' ? undefined : last.nextPageToken),
    placeholderData: keepPreviousData,
  });
  const entries = useMemo(() => entriesOf(feed.data), [feed.data]);
  const labels = useMemo(() => labelsFor(known, entries), [known, entries]);

  if (feed.isPending) return <Loading label="Loading the changes…" />;
  if (feed.data === undefined) return <ErrorBanner error={feed.error} onRetry={() => void feed.refetch()} />;
  if (entries.length === 0) {
    return (
      <EmptyState title={emptyTitle} action={emptyAction}>
        Creating, editing and deleting shows up here, newest first.
      </EmptyState>
    );
  }

  const total = feed.data.pages[0]?.totalCount ?? entries.length;
  const now = Date.now();
  return (
    <div className={feed.isPlaceholderData ? 'change-feed stale' : 'change-feed'} aria-busy={feed.isFetching}>
      {feed.isRefetchError && <ErrorBanner error={feed.error} onRetry={() => void feed.refetch()} />}
      <p className="change-count muted">
        {entries.length === total ? `${total} change${total === 1 ? '' : 's'}` : `The newest ${entries.length} of ${total} changes`}
      </p>
      <ol className="change-list" aria-label="Changes">
        {entries.map((entry) => (
          <ChangeEntry key={entry.id} ns={ns} entry={entry} labels={labels} now={now} showOwner={showOwner} />
        ))}
      </ol>
      {feed.isFetchNextPageError && <ErrorBanner error={feed.error} onRetry={() => void feed.fetchNextPage()} />}
      {feed.hasNextPage && (
        // aria-disabled rather than disabled: the button keeps the keyboard focus while the page loads.
        <button type="button" className="button" aria-disabled={feed.isFetchingNextPage} onClick={() => void (feed.isFetchingNextPage || feed.fetchNextPage())}>
          {feed.isFetchingNextPage ? 'Loading older changes…' : 'Load older'}
        </button>
      )}
    </div>
  );
}

/** A History tab's card: a flag's or a segment's changes and those of what belongs to it. */
export function HistoryCard({ ns, filter, known, about }: { ns: string; filter: HistoryFilter; known: readonly unknown[]; about: string }) {
  const title = useId();
  return (
    <section className="card" aria-labelledby={title}>
      <div className="card-header">
        <div>
          <h2 id={title}>History</h2>
          <p>{about}</p>
        </div>
      </div>
      <div className="card-body">
        <ChangeFeed ns={ns} filter={filter} known={known} />
      </div>
    </section>
  );
}
