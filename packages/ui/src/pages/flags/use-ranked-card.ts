/**
 * The state of a flag's rules or rollouts card: the items and the namespace's segments they name,
 * reordering (`useRankedList`), deleting (asks first, says what happened), the add/edit dialog, and
 * which of those the server and the session allow.
 */
import type { Segment } from '@ensign/core';
import { type QueryKey, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { segments as segmentsApi } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { type ConfirmOptions, useConfirm } from '../../components/confirm.js';
import { useToast } from '../../components/toast.js';
import { type EditDialog, useEditDialog } from '../../hooks/edit-dialog.js';
import { type Lock, useLocks } from '../../hooks/permissions.js';
import { messageOf } from './flag-update.js';
import { type Ranked, type RankedListControls, useRankedList } from './use-ranked-list.js';

/** The routes of one kind of ranked item (`rules` or `rollouts` of `api/endpoints.ts`). */
export interface RankedApi<T> {
  list: (ns: string, flagKey: string) => Promise<T[]>;
  /** Resolve `Drafted` when the change went into the caller's draft. */
  delete: (ns: string, flagKey: string, id: string) => Promise<unknown>;
  order: (ns: string, flagKey: string, ids: string[]) => Promise<unknown>;
}

/** What may be done with the items: adding (locked with its reason), editing, deleting, reordering. */
export interface RankedAbilities {
  add: Lock;
  edit: boolean;
  remove: boolean;
  reorder: boolean;
}

export interface RankedCardState<T extends Ranked> {
  items: UseQueryResult<T[]>;
  /** The items, or none while they load. */
  list: readonly T[];
  segments: UseQueryResult<Segment[]>;
  /** The keys of the namespace's segments; undefined while they load. */
  knownSegments: ReadonlySet<string> | undefined;
  ranked: RankedListControls;
  dialog: EditDialog<T>;
  can: RankedAbilities;
  /** The rank a new item is created with: after the last one. */
  nextRank: number;
  /** Asks with `question`, then deletes the item. */
  askDelete: (item: T, question: ConfirmOptions) => Promise<void>;
}

export function useRankedCard<T extends Ranked>(ns: string, flagKey: string, noun: 'rule' | 'rollout', queryKey: QueryKey, api: RankedApi<T>): RankedCardState<T> {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const items = useQuery({ queryKey, queryFn: () => api.list(ns, flagKey) });
  const segments = useQuery({ queryKey: queryKeys.segments(ns), queryFn: () => segmentsApi.list(ns) });
  const list = items.data ?? [];
  const knownSegments = useMemo(() => (segments.data === undefined ? undefined : new Set(segments.data.map((s) => s.key))), [segments.data]);
  const ranked = useRankedList(queryKey, list, (ids) => api.order(ns, flagKey, ids), noun);
  const dialog = useEditDialog<T>();
  const lockOf = useLocks();
  const can: RankedAbilities = {
    add: lockOf(`${noun}.create`, ns),
    edit: !lockOf(`${noun}.update`, ns).on,
    remove: !lockOf(`${noun}.delete`, ns).on,
    reorder: !lockOf(`${noun}.order`, ns).on,
  };

  const remove = useMutation({
    mutationFn: (item: T) => api.delete(ns, flagKey, item.id),
    onSuccess: (result) => {
      if (!isDrafted(result)) toast(`${noun === 'rule' ? 'Rule' : 'Rollout'} deleted`);
    },
    onError: (error) => toast(`The ${noun} was not deleted: ${messageOf(error)}`, 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });

  return {
    items,
    list,
    segments,
    knownSegments,
    ranked,
    dialog,
    can,
    nextRank: list.reduce((max, item) => Math.max(max, item.rank), 0) + 1,
    askDelete: async (item, question) => {
      if (await confirm(question)) remove.mutate(item);
    },
  };
}
