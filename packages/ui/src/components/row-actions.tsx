/**
 * The last cell of a table row: its Edit and Delete buttons, named after the row ("Edit variant
 * control") so that screen readers and tests tell the rows apart; Delete is coloured as dangerous.
 */
import type { ReactNode } from 'react';

export interface RowActionsProps {
  /** What the row is, as the buttons' names end: "variant control" → "Edit variant control". */
  what: string;
  /** Without it, the row has no Edit button. */
  onEdit?: () => void;
  /** Without it, the row has no Delete button (what cannot be deleted does not offer it). */
  onDelete?: () => void;
  /** While a delete is under way. */
  deleting?: boolean;
  /** Actions before Edit, such as a link into what the row holds. */
  children?: ReactNode;
}

export function RowActions({ what, onEdit, onDelete, deleting = false, children }: RowActionsProps) {
  return (
    <td className="actions">
      {children}
      {onEdit !== undefined && (
        <button type="button" className="button button-small button-ghost" aria-label={`Edit ${what}`} onClick={onEdit}>
          Edit
        </button>
      )}
      {onDelete !== undefined && (
        <button type="button" className="button button-small button-ghost danger-text" aria-label={`Delete ${what}`} disabled={deleting} onClick={onDelete}>
          Delete
        </button>
      )}
    </td>
  );
}

/** The header over the actions column: named for screen readers, blank on screen. */
export function RowActionsHeader() {
  return (
    <th scope="col" className="actions">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
