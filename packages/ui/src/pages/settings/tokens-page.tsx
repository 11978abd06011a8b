/**
 * Settings → API tokens: the static tokens (name, namespace, created, expiry), creating one
 * (shown once), and deleting one after confirmation. Without the token method the page says so
 * instead of offering creation; a session that may not see tokens is told so, and one that may
 * not create or delete them finds Create locked with the reason and no Delete.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { auth } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { sessionNamespaceOf, useSession } from '../../auth/session.js';
import { useConfirm } from '../../components/confirm.js';
import { PageHeader } from '../../components/page-header.js';
import { Pager } from '../../components/pager.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useLock } from '../../hooks/permissions.js';
import { type TokenRow, tokenIdOf, tokenRows } from '../../lib/token-list.js';
import { CreateTokenDialog } from './create-token-dialog.js';
import { TokensTable } from './tokens-table.js';
import './tokens-page.css';

const PAGE_SIZE = 20;

export function TokensPage() {
  const session = useSession();
  const scoped = sessionNamespaceOf(session.state);
  const reading = useLock('token.read');
  if (scoped !== undefined) {
    return (
      <>
        <PageHeader title="API tokens" />
        <EmptyState title="Not open to this session">
          You signed in with a token limited to the namespace {scoped}; API tokens are managed by someone signed in for every namespace.
        </EmptyState>
      </>
    );
  }
  if (reading.on) {
    return (
      <>
        <PageHeader title="API tokens" />
        <EmptyState title="Not open to this session">{reading.hint}. Ask an administrator of this service if you need to manage tokens.</EmptyState>
      </>
    );
  }
  return <TokensOfEveryNamespace />;
}

function TokensOfEveryNamespace() {
  const session = useSession();
  const queries = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const methods = useQuery({ queryKey: queryKeys.methods, queryFn: auth.methods });
  const tokens = useQuery({ queryKey: queryKeys.tokens, queryFn: auth.tokens });
  const [dialog, setDialog] = useState({ open: false, key: 0 });
  const [page, setPage] = useState(0);
  const creating = useLock('token.create');
  const deleting = useLock('token.delete');

  const tokenMethod = methods.data?.some((m) => m.method === 'METHOD_TOKEN' && m.enabled);
  const rows = useMemo(() => tokenRows(tokens.data ?? [], new Date()), [tokens.data]);
  const shown = rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const ownId = session.state.kind === 'signed-in' ? tokenIdOf(session.state.authentication) : undefined;

  const remove = useMutation({
    mutationFn: (row: TokenRow) => auth.deleteToken(row.id),
    onSuccess: (_done, row) => {
      toast(`Token ${row.name === '' ? '' : `"${row.name}" `}deleted`);
      if (shown.length === 1 && page > 0) setPage(page - 1);
    },
    onError: (error, row) => toast(`Could not delete token "${row.name}": ${error.message}`, 'error'),
    onSettled: () => queries.invalidateQueries({ queryKey: queryKeys.tokens }),
  });

  const askDelete = async (row: TokenRow) => {
    const own = row.id === ownId;
    const yes = await confirm({
      title: 'Delete token',
      message: (
        <>
          <p>
            Delete the token <strong>{row.name === '' ? '(no name)' : row.name}</strong>? Anything using it is refused from now on. This cannot be undone.
          </p>
          {own && <p className="notice">You are signed in with this token: deleting it signs you out.</p>}
        </>
      ),
      action: 'Delete token',
    });
    if (yes) remove.mutate(row);
  };

  const openCreate = () => setDialog((d) => ({ open: true, key: d.key + 1 }));
  const createButton = tokenMethod === true && (
    <button type="button" className="button button-primary" disabled={creating.on} title={creating.hint} onClick={openCreate}>
      Create token
    </button>
  );

  return (
    <>
      <PageHeader title="API tokens" subtitle="Static client tokens for scripts, CI pipelines and SDKs. A token is shown once, when it is created." actions={createButton || undefined} />
      {tokenMethod === false && (
        <p className="notice" role="note">
          Static tokens are not enabled on this server, so no token can be created here. Its operator enables them with <code>authentication.methods.token.enabled: true</code>.
        </p>
      )}
      {methods.isError && <ErrorBanner error={methods.error} onRetry={() => void methods.refetch()} />}
      <div className="card">
        {tokens.isPending && <Loading label="Loading tokens…" />}
        {tokens.isError && (
          <div className="card-body">
            <ErrorBanner error={tokens.error} onRetry={() => void tokens.refetch()} />
          </div>
        )}
        {tokens.isSuccess && rows.length === 0 && (
          <EmptyState title="No API tokens yet" action={createButton || undefined}>
            {tokenMethod === false ? 'Tokens appear here once the token method is enabled and one is created.' : 'Create one for each script or service that calls the API, so each can be revoked alone.'}
          </EmptyState>
        )}
        {rows.length > 0 && (
          <TokensTable
            rows={shown}
            ownId={ownId}
            deleting={remove.isPending ? remove.variables?.id : undefined}
            {...(deleting.on ? {} : { onDelete: (row: TokenRow) => void askDelete(row) })}
          />
        )}
      </div>
      <Pager page={page} pageSize={PAGE_SIZE} total={rows.length} onPage={setPage} />
      {tokenMethod === true && <CreateTokenDialog key={dialog.key} open={dialog.open} onClose={() => setDialog((d) => ({ ...d, open: false }))} />}
    </>
  );
}
