/**
 * The flags of a namespace: read whole once, then searched, filtered, sorted and paged in the
 * browser. The list's state lives in the address, so going back to it from a flag finds it as left.
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { flags as flagsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useAddressText } from '../../hooks/address-text.js';
import { PageHeader } from '../../components/page-header.js';
import { Pager } from '../../components/pager.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { paths, useNamespace } from '../../layout/namespace.js';
import { clampPage, DEFAULT_FLAG_QUERY, type FlagQuery, indexFlags, pageOf, readFlagQuery, selectFlags, writeFlagQuery } from '../../lib/flag-list.js';
import { FlagsTable } from './flags-table.js';
import { FlagsToolbar } from './flags-toolbar.js';
import { NewFlagDialog } from './new-flag-dialog.js';
import './flags.css';

export const FLAGS_PAGE_SIZE = 25;

export function FlagsPage() {
  const ns = useNamespace();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState({ open: false, key: 0 });
  const { data, error, isPending, refetch } = useQuery({ queryKey: queryKeys.flags(ns), queryFn: () => flagsApi.list(ns) });

  const state = readFlagQuery(params);
  const update = (changes: Partial<FlagQuery & { page: number }>) => setParams(writeFlagQuery({ ...state, page: 0, ...changes }), { replace: true });
  const [searchText, setSearchText] = useAddressText(state.search, (text) => update({ search: text }));
  const search = useDeferredValue(searchText);
  const index = useMemo(() => indexFlags(data ?? []), [data]);
  const matches = useMemo(
    () => selectFlags(index, { search, type: state.type, enabled: state.enabled, sort: state.sort }),
    [index, search, state.type, state.enabled, state.sort],
  );
  const page = clampPage(state.page, matches.length, FLAGS_PAGE_SIZE);
  const shown = useMemo(() => pageOf(matches, page, FLAGS_PAGE_SIZE), [matches, page]);

  const total = data?.length ?? 0;
  const filtered = state.search !== '' || state.type !== 'all' || state.enabled !== 'all';
  const newFlag = (
    <button type="button" className="button button-primary" onClick={() => setDialog((d) => ({ open: true, key: d.key + 1 }))}>
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
        <FlagsToolbar query={{ ...state, search: searchText }} onChange={(changes) => (changes.search === undefined ? update(changes) : setSearchText(changes.search))} />
        <div className="card">
          {matches.length === 0 ? (
            <EmptyState
              title="No flags match"
              action={
                <button type="button" className="button" onClick={() => setParams(writeFlagQuery({ ...DEFAULT_FLAG_QUERY, sort: state.sort, page: 0 }), { replace: true })}>
                  Clear search and filters
                </button>
              }
            >
              None of the {total.toLocaleString()} flags matches the search and filters.
            </EmptyState>
          ) : (
            <FlagsTable ns={ns} flags={shown} />
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
          data === undefined ? undefined : filtered ? `${matches.length.toLocaleString()} of ${total.toLocaleString()} flags` : `${total.toLocaleString()} ${total === 1 ? 'flag' : 'flags'}`
        }
        actions={total > 0 ? newFlag : undefined}
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
