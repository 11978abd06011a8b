/**
 * A variant flag's variants: the table (on a phone each variant a block of its own, titled by its
 * key, its other cells labelled), adding, editing and deleting them, and the default variant.
 */
import type { Flag, Variant } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rules, variants } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { useConfirm } from '../../components/confirm.js';
import { KeyText } from '../../components/key-text.js';
import { RowActions, RowActionsHeader } from '../../components/row-actions.js';
import { EmptyState } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useEditDialog } from '../../hooks/edit-dialog.js';
import { useLocks } from '../../hooks/permissions.js';
import { formatJson } from '../../lib/json-text.js';
import { VariantDeleteQuestion } from './variant-delete-question.js';
import { DefaultVariantSelect } from './default-variant-select.js';
import { messageOf } from './flag-update.js';
import { VariantDialog } from './variant-dialog.js';

function AttachmentCell({ attachment }: { attachment: string }) {
  if (attachment === '') return <span className="muted">None</span>;
  return (
    <details className="attachment-cell">
      <summary title={attachment}>
        <code>{attachment.length > 48 ? `${attachment.slice(0, 47)}…` : attachment}</code>
      </summary>
      <pre className="block">{formatJson(attachment)}</pre>
    </details>
  );
}

export function VariantsCard({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const dialog = useEditDialog<Variant>();
  const lockOf = useLocks();
  const add = lockOf('variant.create', ns);
  const canEdit = !lockOf('variant.update', ns).on;
  const canDelete = !lockOf('variant.delete', ns).on;
  const flagRules = useQuery({ queryKey: queryKeys.rules(ns, flag.key), queryFn: () => rules.list(ns, flag.key) });
  const remove = useMutation({
    mutationFn: (variant: Variant) => variants.delete(ns, flag.key, variant.id),
    onSuccess: (result, variant) => {
      if (!isDrafted(result)) toast(`Variant ${variant.key} deleted`);
    },
    onError: (error, variant) => toast(`Variant ${variant.key} was not deleted: ${messageOf(error)}`, 'error'),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.flag(ns, flag.key) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.rules(ns, flag.key) });
      await refreshList(queryClient, queryKeys.flags(ns));
    },
  });

  const askDelete = async (variant: Variant) => {
    const yes = await confirm({
      title: 'Delete variant',
      message: <VariantDeleteQuestion variant={variant} isDefault={flag.defaultVariant?.id === variant.id} rules={flagRules.data} />,
      action: 'Delete variant',
    });
    if (yes) remove.mutate(variant);
  };

  return (
    <section className="card" aria-labelledby="variants-title">
      <div className="card-header">
        <div>
          <h2 id="variants-title">Variants</h2>
          <p>The values this flag can return.</p>
        </div>
        <button type="button" className="button" disabled={add.on} title={add.hint} onClick={() => dialog.show(undefined)}>
          Add variant
        </button>
      </div>
      {flag.variants.length === 0 ? (
        <EmptyState title="No variants yet">Add the variants this flag chooses between, such as control and treatment.</EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table table-stacked variants-table">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Attachment</th>
                  {(canEdit || canDelete) && <RowActionsHeader />}
                </tr>
              </thead>
              <tbody>
                {flag.variants.map((variant) => (
                  <tr key={variant.id}>
                    <td data-label="Key" className="variant-key-cell">
                      <span>
                        <KeyText value={variant.key} />
                        {flag.defaultVariant?.id === variant.id && <span className="badge badge-accent default-badge">Default</span>}
                      </span>
                    </td>
                    <td data-label="Name">
                      <span className="clamp-lines" title={variant.name}>
                        {variant.name}
                      </span>
                    </td>
                    <td data-label="Description" className="muted variant-description">
                      {variant.description !== '' && (
                        <span className="clamp-lines" title={variant.description}>
                          {variant.description}
                        </span>
                      )}
                    </td>
                    <td data-label="Attachment" className="attachment-column">
                      <AttachmentCell attachment={variant.attachment} />
                    </td>
                    {(canEdit || canDelete) && (
                      <RowActions
                        what={`variant ${variant.key}`}
                        {...(canEdit ? { onEdit: () => dialog.show(variant) } : {})}
                        {...(canDelete ? { onDelete: () => void askDelete(variant) } : {})}
                      />
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="card-body card-footer-row">
            <DefaultVariantSelect ns={ns} flag={flag} />
          </div>
        </>
      )}
      <VariantDialog key={dialog.key} ns={ns} flagKey={flag.key} open={dialog.open} variant={dialog.item} onClose={dialog.close} />
    </section>
  );
}
