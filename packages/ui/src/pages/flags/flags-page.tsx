/**
 * The flags of a namespace: read whole once, then searched, filtered, sorted and paged in the
 * browser, with how each is used (last evaluation, status over a window) from the usage listing.
 * The list's state lives in the address, so going back to it from a flag finds it as left.
 * "Promote to…" proposes making another namespace match this one.
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { flags as flagsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useAddressText } from '../../hooks/address-text.js';
import { useLock } from '../../hooks/permissions.js';
import { PageHeader } from '../../components/page-header.js';
import { PromoteAction } from '../../components/promote-dialog.js';
import { Pager } from '../../components/pager.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { clampPage, DEFAULT_FLAG_QUERY, type FlagQuery, indexFlags, pageOf, readFlagQuery, selectFlags, writeFlagQuery } from '../../lib/flag-list.js';
import { FlagsTable } from './flags-table.js';
import { FlagsToolbar } from './flags-toolbar.js';
import { NewFlagDialog } from './new-flag-dialog.js';
import { UsageFilters } from './usage-filters.js';
import { useNamespaceUsage } from './use-namespace-usage.js';
import { useNoneStale } from './use-none-stale.js';
import './flags.css';

export const FLAGS_PAGE_SIZE = 25;

export function FlagsPage() {
  const ns = useNamespace();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState({ open: false, key: 0 });
  const { data, error, isPending, refetch } = useQuery({ queryKey: queryKeys.flags(ns), queryFn: () => flagsApi.list(ns) });
  const create = useLock('flag.create', ns);

  const state = readFlagQuery(params);
  const [searchText, setSearchText] = useAddressText(state.search, (text) => update({ search: text }));
  // With the search as typed: the address follows the field a moment late, and another change must not drop it.
  const update = (changes: Partial<FlagQuery & { page: number }>) => setParams(writeFlagQuery({ ...state, search: searchText, page: 0, ...changes }), { replace: true });
  const search = useDeferredValue(searchText);
  const usage = useNamespaceUsage(ns, state.window);
  const index = useMemo(() => indexFlags(data ?? []), [data]);
  const matches = useMemo(
    () => selectFlags(index, { search, type: state.type, enabled: state.enabled, sort: state.sort, stale: state.stale, window: state.window }, usage.byFlag),
    [index, search, state.type, state.enabled, state.sort, state.stale, state.window, usage.byFlag],
  );
  const page = clampPage(state.page, matches.length, FLAGS_PAGE_SIZE);
  const shown = useMemo(() => pageOf(matches, page, FLAGS_PAGE_SIZE), [matches, page]);
  const noneStale = useNoneStale(index, { ...state, search }, usage, matches.length === 0);

  const total = data?.length ?? 0;
  const filtered = search !== '' || state.type !== 'all' || state.enabled !== 'all' || state.stale;
  // Which flags are stale, and their order by evaluation, are known once the usage listing is there.
  const waitingForUsage = (state.stale || state.sort === 'evaluated' || state.sort === 'evaluated-oldest') && usage.column.state === 'loading';
  const newFlag = (
    <button type="button" className="button button-primary" disabled={create.on} title={create.hint} onClick={() => setDialog((d) => ({ open: true, key: d.key + 1 }))}>
      New flag
    </button>
  );

  let body;
  if (isPending) body = <Loading label="Loading flags…" />;
  else if (error !== null) body = <ErrorBanner error={error} onRetry={() => void refetch()} />;
  else if (total === 0)
    body = (
      <div className="card">
        <EmptyState title="No flags yet" action={newFlag}>
          Flags in namespace <code>{ns}</code> turn features on and off, or choose between variants, without a deploy.
        </EmptyState>
      </div>
    );
  else
    body = (
      <>
        <FlagsToolbar query={{ ...state, search: searchText }} onChange={(changes) => (changes.search === undefined ? update(changes) : setSearchText(changes.search))}>
          <UsageFilters query={state} serverWindow={usage.serverWindow} disabled={usage.unavailable} onChange={update} />
        </FlagsToolbar>
        {!usage.unavailable && usage.listing.error !== null && <ErrorBanner error={usage.listing.error} onRetry={() => void usage.listing.refetch()} />}
        <div className="card">
          {waitingForUsage ? (
            <Loading label="Loading usage…" />
          ) : matches.length === 0 ? (
            <EmptyState
              title={noneStale?.title ?? 'No flags match'}
              action={
                <button
                type="button"
                className="button"
                onClick={() => {
                  // Through the field too: a search typed a moment ago may not be in the address yet.
                  setSearchText('');
                  setParams(writeFlagQuery({ ...DEFAULT_FLAG_QUERY, sort: state.sort, window: state.window, page: 0 }), { replace: true });
                }}
              >
                  Clear search and filters
                </button>
              }
            >
              {noneStale?.sentences.join(' ') ?? `None of the ${total.toLocaleString()} flags matches the search and filters.`}
            </EmptyState>
          ) : (
            <FlagsTable ns={ns} flags={shown} usage={usage.column} sort={state.sort} onSort={(sort) => update({ sort })} />
          )}
        </div>
        <Pager page={page} pageSize={FLAGS_PAGE_SIZE} total={matches.length} onPage={(p) => {
            update({ page: p });
            window.scrollTo({ top: 0 });
          }} />
      </>
    );

  return (
    <>
      <PageHeader
        title="Flags"
        subtitle={
          data === undefined
            ? undefined
            : (filtered ? `${matches.length.toLocaleString()} of ${total.toLocaleString()} flags` : `${total.toLocaleString()} ${total === 1 ? 'flag' : 'flags'}`) +
              (usage.unavailable ? ' · usage is not available on this server' : '')
        }
        actions={
          total > 0 ? (
            <>
              <PromoteAction from={ns} />
              {newFlag}
            </>
          ) : undefined
        }
      />
      {body}
      <NewFlagDialog
        key={dialog.key}
        ns={ns}
        open={dialog.open}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onCreated={(flag) => void navigate(paths.flag(ns, flag.key))}
      />
    </>
  );
}
