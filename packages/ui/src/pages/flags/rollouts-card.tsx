/**
 * A boolean flag's rollouts in the order they are tried, and what the flag evaluates to when none
 * matches (its enabled state).
 */
import type { Flag, Rollout } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { rollouts as rolloutsApi, segments as segmentsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useConfirm } from '../../components/confirm.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { messageOf } from './flag-update.js';
import { RolloutDialog } from './rollout-dialog.js';
import { RolloutItem } from './rollout-item.js';
import { useRankedList } from './use-ranked-list.js';

export function RolloutsCard({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const key = queryKeys.rollouts(ns, flag.key);
  const rollouts = useQuery({ queryKey: key, queryFn: () => rolloutsApi.list(ns, flag.key) });
  const segments = useQuery({ queryKey: queryKeys.segments(ns), queryFn: () => segmentsApi.list(ns) });
  const list = rollouts.data ?? [];
  const known = useMemo(() => (segments.data === undefined ? undefined : new Set(segments.data.map((s) => s.key))), [segments.data]);
  const ranked = useRankedList(key, list, (ids) => rolloutsApi.order(ns, flag.key, ids), 'rollout');
  const [dialog, setDialog] = useState<{ open: boolean; key: number; rollout: Rollout | undefined }>({ open: false, key: 0, rollout: undefined });
  const open = (rollout: Rollout | undefined) => setDialog((d) => ({ open: true, key: d.key + 1, rollout }));

  const remove = useMutation({
    mutationFn: (rollout: Rollout) => rolloutsApi.delete(ns, flag.key, rollout.id),
    onSuccess: () => toast('Rollout deleted'),
    onError: (error) => toast(`The rollout was not deleted: ${messageOf(error)}`, 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const askDelete = async (rollout: Rollout, index: number) => {
    const yes = await confirm({ title: 'Delete rollout', message: `Delete rollout ${index + 1}? Entities it matched fall through to the next rollout.`, action: 'Delete rollout' });
    if (yes) remove.mutate(rollout);
  };

  let body;
  if (rollouts.isPending) body = <Loading label="Loading rollouts…" />;
  else if (rollouts.error !== null) body = <ErrorBanner error={rollouts.error} onRetry={() => void rollouts.refetch()} />;
  else if (list.length === 0) body = <EmptyState title="No rollouts yet">Add a threshold rollout to turn the flag on for a share of entities, or a segment rollout for chosen ones.</EmptyState>;
  else
    body = (
      <ol className="ranked-list" ref={ranked.listRef} aria-label="Rollouts" aria-busy={ranked.busy}>
        {list.map((rollout, index) => (
          <RolloutItem
            key={rollout.id}
            ns={ns}
            rollout={rollout}
            index={index}
            knownSegments={known}
            onEdit={() => open(rollout)}
            onDelete={() => void askDelete(rollout, index)}
            itemProps={ranked.item(rollout.id)}
            handleProps={ranked.handle(rollout.id)}
            moveUp={ranked.moveButton(rollout.id, index, -1)}
            moveDown={ranked.moveButton(rollout.id, index, 1)}
          />
        ))}
      </ol>
    );

  return (
    <section className="card" aria-labelledby="rollouts-title">
      <div className="card-header">
        <div>
          <h2 id="rollouts-title">Rollouts</h2>
          <p>Tried from the top; the first rollout that matches an entity decides its value.</p>
        </div>
        <button type="button" className="button" onClick={() => open(undefined)} disabled={segments.isPending}>
          Add rollout
        </button>
      </div>
      <div className="card-body">
        {body}
        <p className="default-value" aria-live="polite">
          When no rollout matches, the flag evaluates to: <strong>{flag.enabled ? 'enabled' : 'disabled'}</strong>{' '}
          <span className={flag.enabled ? 'badge badge-on' : 'badge badge-off'}>{String(flag.enabled)}</span>
          <span className="muted"> (the flag’s enabled switch)</span>
        </p>
      </div>
      <RolloutDialog
        key={dialog.key}
        ns={ns}
        flagKey={flag.key}
        open={dialog.open}
        rollout={dialog.rollout}
        nextRank={list.reduce((max, r) => Math.max(max, r.rank), 0) + 1}
        segments={segments.data ?? []}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
    </section>
  );
}
