/**
 * The parts a flag's rules and rollouts cards share: the list of ranked items (loading, failed,
 * empty, or the ordered list wired to `useRankedList`), and each item's card with its drag handle
 * and Move up / Move down / Edit / Delete buttons (each only where the server and the session allow it).
 */
import type { ReactNode } from 'react';
import { ErrorBanner, Loading } from '../../components/status.js';
import type { RankedAbilities, RankedCardState } from './use-ranked-card.js';
import type { Ranked, RankedListControls } from './use-ranked-list.js';

export interface RankedItemsProps<T extends Ranked> {
  card: RankedCardState<T>;
  /** The list's accessible name ("Rules"). */
  label: string;
  loadingLabel: string;
  /** Shown when there are no items. */
  empty: ReactNode;
  children: (item: T, index: number) => ReactNode;
}

export function RankedItems<T extends Ranked>({ card, label, loadingLabel, empty, children }: RankedItemsProps<T>) {
  const { items, list, ranked } = card;
  if (items.isPending) return <Loading label={loadingLabel} />;
  if (items.error !== null) return <ErrorBanner error={items.error} onRetry={() => void items.refetch()} />;
  if (list.length === 0) return <>{empty}</>;
  return (
    <ol className="ranked-list" ref={ranked.listRef} aria-label={label} aria-busy={ranked.busy}>
      {list.map(children)}
    </ol>
  );
}

export interface RankedItemProps {
  id: string;
  index: number;
  /** The id of the item's heading, which names the list item. */
  titleId: string;
  ranked: RankedListControls;
  can: RankedAbilities;
  onEdit: () => void;
  onDelete: () => void;
  /** The item's heading and summary. */
  children: ReactNode;
}

export function RankedItem({ id, index, titleId, ranked, can, onEdit, onDelete, children }: RankedItemProps) {
  // Nothing allowed (a read-only server, or a session that may not): the item as it is, nothing to drag, move, edit or delete.
  if (!can.edit && !can.remove && !can.reorder) {
    return (
      <li className="sortable-item" aria-labelledby={titleId}>
        <div className="ranked-card">
          <div className="ranked-main">{children}</div>
        </div>
      </li>
    );
  }
  return (
    <li {...(can.reorder ? ranked.item(id) : { className: 'sortable-item' })} aria-labelledby={titleId}>
      <div className="ranked-card">
        {can.reorder && (
          <span className="drag-handle" title="Drag to reorder" {...ranked.handle(id)}>
            ⠿
          </span>
        )}
        <div className="ranked-main">{children}</div>
        <div className="ranked-actions">
          {can.reorder && (
            <>
              <button type="button" className="icon-button" aria-label="Move up" title="Move up" {...ranked.moveButton(id, index, -1)}>
                ↑
              </button>
              <button type="button" className="icon-button" aria-label="Move down" title="Move down" {...ranked.moveButton(id, index, 1)}>
                ↓
              </button>
            </>
          )}
          {can.edit && (
            <button type="button" className="button button-small" onClick={onEdit}>
              Edit
            </button>
          )}
          {can.remove && (
            <button type="button" className="button button-small button-ghost danger-text" onClick={onDelete}>
              Delete
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
