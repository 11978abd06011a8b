/**
 * Reordering of a flag's rules or rollouts, by dragging a card's handle onto another card or with
 * its "Move up" / "Move down" buttons. The new order shows at once and `save` sends the full id
 * list; a refused save puts the old order back and says why.
 */
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useToast } from '../../components/toast.js';
import { isDrafted } from '../../api/drafting.js';
import { inOrder, moveBy, moveItem, sameOrder } from '../../lib/reorder.js';
import { messageOf } from './flag-update.js';

export interface Ranked {
  id: string;
  rank: number;
}

const DRAG_TYPE = 'application/x-ensign-item';

export function useRankedList<T extends Ranked>(queryKey: QueryKey, items: readonly T[], save: (ids: string[]) => Promise<unknown>, noun: 'rule' | 'rollout') {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [dragging, setDragging] = useState<string | undefined>(undefined);
  const [over, setOver] = useState<string | undefined>(undefined);
  const listRef = useRef<HTMLOListElement>(null);
  const refocus = useRef<{ id: string; step: -1 | 1 } | undefined>(undefined);
  const ids = items.map((item) => item.id);

  const mutation = useMutation({
    mutationFn: save,
    onMutate: async (next: string[]) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<T[]>(queryKey);
      queryClient.setQueryData<T[]>(queryKey, (list) => list && inOrder(list, next).map((item, i) => ({ ...item, rank: i + 1 })));
      return { previous };
    },
    onError: (error, _next, context) => {
      queryClient.setQueryData(queryKey, context?.previous);
      toast(`The new order of the ${noun}s was not saved: ${messageOf(error)}`, 'error');
    },
    onSuccess: (result, _next, context) => {
      // In a draft: the order shown is the one applied until the draft is.
      if (isDrafted(result)) queryClient.setQueryData(queryKey, context.previous);
      else toast(`${noun === 'rule' ? 'Rule' : 'Rollout'} order saved`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });

  const reorder = (next: readonly string[]) => {
    if (!sameOrder(next, ids)) mutation.mutate([...next]);
  };

  // Moving a card moves its buttons in the page; the one pressed keeps the focus (or its twin at either end).
  useEffect(() => {
    const target = refocus.current;
    if (target === undefined || listRef.current === null) return;
    refocus.current = undefined;
    const find = (step: number) => listRef.current?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(target.id)}:${step}"]:not(:disabled)`);
    (find(target.step) ?? find(-target.step))?.focus();
  });

  const move = (id: string, step: -1 | 1) => {
    refocus.current = { id, step };
    reorder(moveBy(ids, id, step));
  };

  const endDrag = () => {
    setDragging(undefined);
    setOver(undefined);
  };

  return {
    listRef,
    busy: mutation.isPending,
    move,
    /** Props of the "Move up" / "Move down" buttons of item `index`. */
    moveButton: (id: string, index: number, step: -1 | 1) => ({
      'data-move': `${id}:${step}`,
      disabled: step === -1 ? index === 0 : index === items.length - 1,
      onClick: () => move(id, step),
    }),
    /** Props of the drag handle of an item: the handle starts the drag, the whole card is the drag image. */
    handle: (id: string) => ({
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData(DRAG_TYPE, id);
        event.dataTransfer.setData('text/plain', id);
        const card = event.currentTarget.closest('li');
        if (card !== null) event.dataTransfer.setDragImage(card, 16, 16);
        setDragging(id);
      },
      onDragEnd: endDrag,
    }),
    /** Props of an item's card, which is a drop target for the others. */
    item: (id: string) => ({
      className: ['sortable-item', dragging === id ? 'dragging' : '', over === id && dragging !== id ? 'drop-target' : ''].join(' ').trim(),
      onDragOver: (event: DragEvent<HTMLElement>) => {
        if (dragging === undefined) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (over !== id) setOver(id);
      },
      onDragLeave: (event: DragEvent<HTMLElement>) => {
        if (over === id && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(undefined);
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        const from = dragging ?? event.dataTransfer.getData(DRAG_TYPE);
        endDrag();
        reorder(moveItem(ids, ids.indexOf(from), ids.indexOf(id)));
      },
    }),
  };
}

/** What `useRankedList` gives the list and its cards. */
export type RankedListControls = ReturnType<typeof useRankedList>;
