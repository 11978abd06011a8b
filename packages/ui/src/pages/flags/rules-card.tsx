/**
 * A variant flag's rules, in the order they are tried: add, edit, delete, and reorder by dragging
 * or with the move buttons. The first rule whose segments match an entity decides its variant.
 */
import type { Flag, Rule } from '@ensign/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { rules as rulesApi, segments as segmentsApi } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useConfirm } from '../../components/confirm.js';
import { EmptyState, ErrorBanner, Loading } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { describeSegments } from '../../lib/segment-ref.js';
import { messageOf } from './flag-update.js';
import { RuleDialog } from './rule-dialog.js';
import { RuleItem } from './rule-item.js';
import { useRankedList } from './use-ranked-list.js';

export function RulesCard({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const key = queryKeys.rules(ns, flag.key);
  const rules = useQuery({ queryKey: key, queryFn: () => rulesApi.list(ns, flag.key) });
  const segments = useQuery({ queryKey: queryKeys.segments(ns), queryFn: () => segmentsApi.list(ns) });
  const list = rules.data ?? [];
  const known = useMemo(() => new Set((segments.data ?? []).map((s) => s.key)), [segments.data]);
  const ranked = useRankedList(key, list, (ids) => rulesApi.order(ns, flag.key, ids), 'rule');
  const [dialog, setDialog] = useState<{ open: boolean; key: number; rule: Rule | undefined }>({ open: false, key: 0, rule: undefined });
  const open = (rule: Rule | undefined) => setDialog((d) => ({ open: true, key: d.key + 1, rule }));

  const remove = useMutation({
    mutationFn: (rule: Rule) => rulesApi.delete(ns, flag.key, rule.id),
    onSuccess: () => toast('Rule deleted'),
    onError: (error) => toast(`The rule was not deleted: ${messageOf(error)}`, 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const askDelete = async (rule: Rule, index: number) => {
    const yes = await confirm({
      title: 'Delete rule',
      message: (
        <>
          Delete rule {index + 1} (<code>{describeSegments(rule)}</code>)? Entities it matched fall through to the next rule.
        </>
      ),
      action: 'Delete rule',
    });
    if (yes) remove.mutate(rule);
  };

  let body;
  if (rules.isPending) body = <Loading label="Loading rules…" />;
  else if (rules.error !== null) body = <ErrorBanner error={rules.error} onRetry={() => void rules.refetch()} />;
  else if (list.length === 0)
    body = (
      <EmptyState title="No rules yet">
        Without rules every entity gets the default variant{flag.defaultVariant === undefined ? ' (none is set)' : ` (${flag.defaultVariant.key})`}.
      </EmptyState>
    );
  else
    body = (
      <ol className="ranked-list" ref={ranked.listRef} aria-label="Rules" aria-busy={ranked.busy}>
        {list.map((rule, index) => (
          <RuleItem
            key={rule.id}
            ns={ns}
            rule={rule}
            index={index}
            variants={flag.variants}
            knownSegments={segments.data === undefined ? undefined : known}
            onEdit={() => open(rule)}
            onDelete={() => void askDelete(rule, index)}
            itemProps={ranked.item(rule.id)}
            handleProps={ranked.handle(rule.id)}
            moveUp={ranked.moveButton(rule.id, index, -1)}
            moveDown={ranked.moveButton(rule.id, index, 1)}
          />
        ))}
      </ol>
    );

  return (
    <section className="card" aria-labelledby="rules-title">
      <div className="card-header">
        <div>
          <h2 id="rules-title">Rules</h2>
          <p>Tried from the top; the first rule whose segments match an entity decides its variant.</p>
        </div>
        <button type="button" className="button" onClick={() => open(undefined)} disabled={segments.isPending}>
          Add rule
        </button>
      </div>
      <div className="card-body">{body}</div>
      <RuleDialog
        key={dialog.key}
        ns={ns}
        flag={flag}
        open={dialog.open}
        rule={dialog.rule}
        nextRank={list.reduce((max, r) => Math.max(max, r.rank), 0) + 1}
        segments={segments.data ?? []}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
    </section>
  );
}
