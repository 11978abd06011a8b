/**
 * The namespaces of the service: create, edit, delete (asks first; a protected one offers no
 * Delete), export each one as a Flipt document or import one into it, and a way into its flags.
 * A read-only server offers export and the way into the flags only; each row offers what the
 * session may do in its namespace.
 */
import type { Namespace } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { namespaces } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { sessionNamespaceOf, useSession } from '../../auth/session.js';
import { useConfirm } from '../../components/confirm.js';
import { PageHeader } from '../../components/page-header.js';
import { RowActionsHeader } from '../../components/row-actions.js';
import { ErrorBanner, Loading } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useEditDialog } from '../../hooks/edit-dialog.js';
import { useLock } from '../../hooks/permissions.js';
import { lastNamespace, rememberNamespace } from '../../layout/namespace.js';
import { useExportNamespace } from './export-namespace.js';
import { ImportDialog } from './import-dialog.js';
import { NamespaceDialog } from './namespace-dialog.js';
import { NamespaceRow } from './namespace-row.js';
import './namespaces-page.css';

export function NamespacesPage() {
  const dialog = useEditDialog<Namespace>();
  const importing = useEditDialog<string>();
  const exporting = useExportNamespace();
  const create = useLock('namespace.create');
  const scoped = sessionNamespaceOf(useSession().state);
  const list = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list });
  const queries = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (key: string) => namespaces.delete(key),
    onSuccess: async (_, key) => {
      if (lastNamespace() === key) rememberNamespace('default');
      queries.removeQueries({ queryKey: queryKeys.namespace(key) });
      await queries.invalidateQueries({ queryKey: queryKeys.namespaces });
      toast(`Namespace "${key}" deleted`);
    },
  });

  const askDelete = async (ns: Namespace) => {
    const ok = await confirm({
      title: 'Delete namespace',
      message: (
        <>
          Delete the namespace <strong>{ns.name}</strong> (<code>{ns.key}</code>) and its segments? The service refuses while it still has flags.
        </>
      ),
      action: 'Delete namespace',
    });
    if (ok) remove.mutate(ns.key);
  };

  // A session held to one namespace may not create another (the service would refuse and end it).
  const newButton = scoped === undefined && (
    <button type="button" className="button button-primary" disabled={create.on} title={create.hint} onClick={() => dialog.show(undefined)}>
      New namespace
    </button>
  );
  return (
    <>
      <PageHeader
        title="Namespaces"
        subtitle={
          scoped === undefined
            ? 'Each namespace holds its own flags and segments; clients name one when they evaluate.'
            : `You signed in with a token limited to the namespace ${scoped}: it is the only one shown.`
        }
        actions={newButton || undefined}
      />
      <ErrorBanner error={remove.error} />
      <NamespaceDialog open={dialog.open} namespace={dialog.item} onClose={dialog.close} />
      <ImportDialog open={importing.open} namespaceKey={importing.item ?? ''} onClose={importing.close} />
      {list.isPending ? (
        <Loading label="Loading namespaces…" />
      ) : list.isError ? (
        <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="card">
          <div className="table-wrap">
            <table className="table table-stacked namespaces-table">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Protected</th>
                  <RowActionsHeader />
                </tr>
              </thead>
              <tbody>
                {list.data.map((ns) => (
                  <NamespaceRow
                    key={ns.key}
                    namespace={ns}
                    onEdit={() => dialog.show(ns)}
                    onDelete={() => void askDelete(ns)}
                    deleting={remove.isPending}
                    onImport={() => importing.show(ns.key)}
                    onExport={() => exporting.mutate(ns.key)}
                    exporting={exporting.isPending && exporting.variables === ns.key}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </>
  );
}
