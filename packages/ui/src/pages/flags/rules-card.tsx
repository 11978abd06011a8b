/**
 * A variant flag's rules, in the order they are tried: add, edit, delete, and reorder by dragging
 * or with the move buttons. The first rule whose segments match an entity decides its variant.
 */
import type { Flag, Rule } from '@ensign/core';
import { rules as rulesApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { EmptyState } from '../../components/status.js';
import { describeSegments } from '../../lib/segment-ref.js';
import { RankedItems } from './ranked-card.js';
import { RuleDialog } from './rule-dialog.js';
import { RuleItem } from './rule-item.js';
import { useRankedCard } from './use-ranked-card.js';

export function RulesCard({ ns, flag }: { ns: string; flag: Flag }) {
  const card = useRankedCard<Rule>(ns, flag.key, 'rule', queryKeys.rules(ns, flag.key), rulesApi);
  const { dialog } = card;
  const askDelete = (rule: Rule, index: number) =>
    card.askDelete(rule, {
      title: 'Delete rule',
      message: (
        <>
          Delete rule {index + 1} (<code>{describeSegments(rule)}</code>)? Entities it matched fall through to the next rule.
        </>
      ),
      action: 'Delete rule',
    });

  return (
    <section className="card" aria-labelledby="rules-title">
      <div className="card-header">
        <div>
          <h2 id="rules-title">Rules</h2>
          <p>Tried from the top; the first rule whose segments match an entity decides its variant.</p>
        </div>
        <button type="button" className="button" onClick={() => dialog.show(undefined)} disabled={card.can.add.on || card.segments.isPending} title={card.can.add.hint}>
          Add rule
        </button>
      </div>
      <div className="card-body">
        <RankedItems
          card={card}
          label="Rules"
          loadingLabel="Loading rules…"
          empty={
            <EmptyState title="No rules yet">
              Without rules every entity gets the default variant{flag.defaultVariant === undefined ? ' (none is set)' : ` (${flag.defaultVariant.key})`}.
            </EmptyState>
          }
        >
          {(rule, index) => (
            <RuleItem
              key={rule.id}
              ns={ns}
              rule={rule}
              index={index}
              variants={flag.variants}
              knownSegments={card.knownSegments}
              onEdit={() => dialog.show(rule)}
              onDelete={() => void askDelete(rule, index)}
              ranked={card.ranked}
              can={card.can}
            />
          )}
        </RankedItems>
      </div>
      <RuleDialog
        key={dialog.key}
        ns={ns}
        flag={flag}
        open={dialog.open}
        rule={dialog.item}
        nextRank={card.nextRank}
        segments={card.segments.data ?? []}
        onClose={dialog.close}
      />
    </section>
  );
}
