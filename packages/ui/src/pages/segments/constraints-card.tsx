/** The constraints of a segment: a table with add, edit and delete (which asks first). */
import type { Constraint, Segment } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { constraints } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { useConfirm } from '../../components/confirm.js';
import { KeyText } from '../../components/key-text.js';
import { RowActions, RowActionsHeader } from '../../components/row-actions.js';
import { EmptyState, ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useEditDialog } from '../../hooks/edit-dialog.js';
import { useLocks } from '../../hooks/permissions.js';
import { operatorLabel, typeLabel } from '../../lib/constraint-operators.js';
import { ConstraintDialog } from './constraint-dialog.js';
import { ConstraintValueCell } from './constraint-value-cell.js';

export function ConstraintsCard({ ns, segment }: { ns: string; segment: Segment }) {
  const dialog = useEditDialog<Constraint>();
  const lockOf = useLocks();
  const add = lockOf('constraint.create', ns);
  const canEdit = !lockOf('constraint.update', ns).on;
  const canDelete = !lockOf('constraint.delete', ns).on;
  const queries = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: (constraint: Constraint) => constraints.delete(ns, segment.key, constraint.id),
    onSuccess: async (result) => {
      await Promise.all([
        queries.invalidateQueries({ queryKey: queryKeys.segment(ns, segment.key) }),
        refreshList(queries, queryKeys.segments(ns)),
      ]);
      if (!isDrafted(result)) toast('Constraint deleted');
    },
  });

  const askDelete = async (constraint: Constraint) => {
    const ok = await confirm({
      title: 'Delete constraint',
      message: (
        <>
          Delete the constraint <KeyText value={constraint.property} /> {operatorLabel(constraint.type, constraint.operator)}? Entities are matched without it from now on.
        </>
      ),
      action: 'Delete constraint',
    });
    if (ok) remove.mutate(constraint);
  };

  const addButton = (
    <button type="button" className="button button-primary" disabled={add.on} title={add.hint} onClick={() => dialog.show(undefined)}>
      Add constraint
    </button>
  );
  const list = segment.constraints;
  return (
    <section className="card" aria-labelledby="constraints-title">
      <div className="card-header">
        <div>
          <h2 id="constraints-title">Constraints</h2>
          <p>
            {list.length === 0
              ? 'Without constraints the segment matches every entity.'
              : segment.matchType === 'ANY_MATCH_TYPE'
                ? 'An entity matches when any one of these matches its context.'
                : 'An entity matches when all of these match its context.'}
          </p>
        </div>
        {addButton}
      </div>
      <div className="card-body">
        <ErrorBanner error={remove.error} />
        {list.length === 0 ? (
          <EmptyState title="No constraints yet">Add one to narrow the segment down, for example plan equals pro.</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table table-stacked constraints-table">
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">Property</th>
                  <th scope="col">Operator</th>
                  <th scope="col">Value</th>
                  <th scope="col">Description</th>
                  {(canEdit || canDelete) && <RowActionsHeader />}
                </tr>
              </thead>
              <tbody>
                {list.map((constraint) => (
                  <tr key={constraint.id}>
                    <td data-label="Type">
                      <span className="badge">{typeLabel(constraint.type)}</span>
                    </td>
                    <td data-label="Property">
                      <KeyText value={constraint.property} />
                    </td>
                    <td data-label="Operator">{operatorLabel(constraint.type, constraint.operator)}</td>
                    <td data-label="Value">
                      <ConstraintValueCell constraint={constraint} />
                    </td>
                    <td className="muted" data-label="Description">{constraint.description}</td>
                    {(canEdit || canDelete) && (
                      <RowActions
                        what={`constraint ${constraint.property}`}
                        {...(canEdit ? { onEdit: () => dialog.show(constraint) } : {})}
                        {...(canDelete ? { onDelete: () => void askDelete(constraint) } : {})}
                        deleting={remove.isPending}
                      />
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <ConstraintDialog ns={ns} segmentKey={segment.key} open={dialog.open} constraint={dialog.item} onClose={dialog.close} />
    </section>
  );
}
