/**
 * A boolean flag's rollouts in the order they are tried, and what the flag evaluates to when none
 * matches (its enabled state).
 */
import type { Flag, Rollout } from '@ensign/core';
import { rollouts as rolloutsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { EmptyState } from '../../components/status.js';
import { RankedItems } from './ranked-card.js';
import { RolloutDialog } from './rollout-dialog.js';
import { RolloutItem } from './rollout-item.js';
import { useRankedCard } from './use-ranked-card.js';

export function RolloutsCard({ ns, flag }: { ns: string; flag: Flag }) {
  const card = useRankedCard<Rollout>(ns, flag.key, 'rollout', queryKeys.rollouts(ns, flag.key), rolloutsApi);
  const { dialog } = card;
  const askDelete = (rollout: Rollout, index: number) =>
    card.askDelete(rollout, { title: 'Delete rollout', message: `Delete rollout ${index + 1}? Entities it matched fall through to the next rollout.`, action: 'Delete rollout' });

  return (
    <section className="card" aria-labelledby="rollouts-title">
      <div className="card-header">
        <div>
          <h2 id="rollouts-title">Rollouts</h2>
          <p>Tried from the top; the first rollout that matches an entity decides its value.</p>
        </div>
        <button type="button" className="button" onClick={() => dialog.show(undefined)} disabled={card.can.add.on || card.segments.isPending} title={card.can.add.hint}>
          Add rollout
        </button>
      </div>
      <div className="card-body">
        <RankedItems
          card={card}
          label="Rollouts"
          loadingLabel="Loading rollouts…"
          empty={<EmptyState title="No rollouts yet">Add a threshold rollout to turn the flag on for a share of entities, or a segment rollout for chosen ones.</EmptyState>}
        >
          {(rollout, index) => (
            <RolloutItem
              key={rollout.id}
              ns={ns}
              rollout={rollout}
              index={index}
              knownSegments={card.knownSegments}
              onEdit={() => dialog.show(rollout)}
              onDelete={() => void askDelete(rollout, index)}
              ranked={card.ranked}
              can={card.can}
            />
          )}
        </RankedItems>
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
        rollout={dialog.item}
        nextRank={card.nextRank}
        segments={card.segments.data ?? []}
        onClose={dialog.close}
      />
    </section>
  );
}
