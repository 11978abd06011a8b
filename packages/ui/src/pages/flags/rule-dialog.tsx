/**
 * Adds or edits a rule: its segments, the share of traffic per variant, and when it applies. A new
 * rule is created first, then one distribution per variant with a share; should one of those calls
 * fail, the dialog stays open with what was typed and turns into the editor of the rule just
 * created, so that trying again completes that rule instead of creating a second.
 */
import type { Distribution, Flag, Rule, Segment, ValidityWindow } from '@ensign/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { isDrafted } from '../../api/drafting.js';
import { distributions, type RuleDistributionInput, rules } from '../../api/endpoints.js';
import { draftsEdits } from '../../api/protection.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { FieldError } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors, useFreshRefusal } from '../../hooks/form-errors.js';
import { useLock } from '../../hooks/permissions.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { checkShares } from '../../lib/distribution-share.js';
import { distributionRows, initialPercents, percentsOf, planDistributions, type DistributionOp } from '../../lib/distributions.js';
import { segmentKeysOf, segmentRefInput } from '../../lib/segment-ref.js';
import { windowChanged, windowDraft, windowInput, windowOf, windowProblems } from '../../lib/validity-window.js';
import { DistributionFields } from './distribution-fields.js';
import { SegmentPicker, type SegmentChoice } from './segment-picker.js';
import { WindowFields } from './window-fields.js';

export interface RuleDialogProps {
  ns: string;
  flag: Flag;
  open: boolean;
  /** The rule to edit; none to add one. */
  rule: Rule | undefined;
  /** The rank a new rule takes: after the last. */
  nextRank: number;
  segments: readonly Segment[];
  onClose: () => void;
}

const sameChoice = (a: SegmentChoice, b: SegmentChoice): boolean =>
  a.keys.length === b.keys.length && a.keys.every((k, i) => k === b.keys[i]) && (a.keys.length < 2 || a.operator === b.operator);

/** The shares of a new rule by variant key, as sent with the rule. */
const splitOf = (flag: Flag, wanted: Readonly<Record<string, number>>): RuleDistributionInput[] =>
  flag.variants.flatMap((v) => ((wanted[v.id] ?? 0) > 0 ? [{ variantKey: v.key, rollout: wanted[v.id] ?? 0 }] : []));

export function RuleDialog({ ns, flag, open, rule, nextRank, segments, onClose }: RuleDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const variantIds = useMemo(() => flag.variants.map((v) => v.id), [flag.variants]);
  const [choice, setChoice] = useState<SegmentChoice>(() => ({
    keys: rule === undefined ? [] : segmentKeysOf(rule),
    operator: rule?.segmentOperator ?? 'OR_SEGMENT_OPERATOR',
  }));
  const [percents, setPercents] = useState<Record<string, string>>(() => initialPercents(variantIds, rule?.distributions));
  // Every distribution the rule holds has its field, a second one of a variant included: none is dropped unseen.
  const [rows] = useState(() => distributionRows(variantIds, rule?.distributions));
  const zone = useTimeZone();
  const [bounds, setBounds] = useState(() => windowDraft(rule, zone));
  const [error, setError] = useState<unknown>(undefined);
  const [saving, setSaving] = useState(false);
  // What the service holds of the rule: none yet for a new rule, kept up to date after each call.
  const saved = useRef<{ ruleId: string; choice: SegmentChoice; window: ValidityWindow; distributions: Distribution[] } | undefined>(
    rule === undefined
      ? undefined
      : { ruleId: rule.id, choice: { keys: segmentKeysOf(rule), operator: rule.segmentOperator }, window: windowOf(rule), distributions: [...rule.distributions] },
  );
  const [editing, setEditing] = useState(rule !== undefined);
  // Distributions are checked as the segment's: a session that may edit rules may still not change their split.
  const splitLock = useLock('distribution.update', ns);

  const check = checkShares(percents);
  const refused = formErrors(error, { segmentKey: 'segments', segmentKeys: 'segments', 'segmentKey or segmentKeys': 'segments', rollout: 'distribution', validFrom: 'validFrom', validUntil: 'validUntil' });
  const refusal = useFreshRefusal(error);
  const errors = { general: refused.general, byField: refusal.fresh(refused.byField) };
  const windowChecks = windowProblems(bounds, zone);
  const canSave = check.ok && choice.keys.length > 0 && windowChecks.until === undefined && !saving;

  // Set when a call went into the caller's draft (a protected namespace) instead of being made.
  const drafted = useRef(false);
  const apply = async (ruleId: string, op: DistributionOp, list: Distribution[]): Promise<Distribution[]> => {
    if (op.kind === 'create') {
      const created = await distributions.create(ns, flag.key, ruleId, { variantId: op.variantId, rollout: op.rollout });
      if (!isDrafted(created)) return [...list, created];
    } else if (op.kind === 'update') {
      const updated = await distributions.update(ns, flag.key, ruleId, op.id, { variantId: op.variantId, rollout: op.rollout });
      if (!isDrafted(updated)) return list.map((d) => (d.id === op.id ? updated : d));
    } else if (!isDrafted(await distributions.delete(ns, flag.key, ruleId, op.id, op.variantId))) {
      return list.filter((d) => d.id !== op.id);
    }
    drafted.current = true;
    return list;
  };

  const save = async () => {
    if (!canSave) return;
    setSaving(true);
    setError(undefined);
    drafted.current = false;
    try {
      let state = saved.current;
      if (state === undefined) {
        // Into a draft the split goes with the rule: a change request cannot name the id of a rule it creates.
        const split = draftsEdits(ns) ? splitOf(flag, percentsOf(percents)) : undefined;
        const created = await rules.create(ns, flag.key, { ...segmentRefInput(choice.keys, choice.operator), ...windowInput(bounds, zone), rank: nextRank, ...(split === undefined ? {} : { distributions: split }) });
        if (isDrafted(created)) {
          if (split === undefined && planDistributions([], percentsOf(percents)).length > 0) toast('The new rule is in your draft without its split: set the split once the draft is applied', 'info');
          onClose();
          return;
        }
        state = { ruleId: created.id, choice, window: windowOf(created), distributions: [] };
        saved.current = state;
      } else if (!sameChoice(state.choice, choice) || windowChanged(bounds, zone, state.window)) {
        const updated = await rules.update(ns, flag.key, state.ruleId, { ...segmentRefInput(choice.keys, choice.operator), ...windowInput(bounds, zone, state.window) });
        state.choice = choice;
        if (isDrafted(updated)) drafted.current = true;
        else state.window = windowOf(updated);
      }
      // A further distribution's field applies only while that distribution is there.
      const held = new Set(state.distributions.map((d) => d.id));
      const wanted = Object.fromEntries(Object.entries(percentsOf(percents)).filter(([slot]) => variantIds.includes(slot) || held.has(slot)));
      for (const op of planDistributions(state.distributions, wanted)) {
        state.distributions = await apply(state.ruleId, op, state.distributions);
      }
      if (!drafted.current) toast(rule === undefined ? 'Rule added' : 'Rule saved');
      onClose();
    } catch (err) {
      setError(err);
      // From here on the rule exists: saving again must complete it, not create another.
      if (saved.current !== undefined) setEditing(true);
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: queryKeys.rules(ns, flag.key) });
    }
  };

  return (
    <Dialog
      open={open}
      wide
      title={editing ? 'Edit rule' : 'Add rule'}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<DialogButtons onCancel={onClose} label={editing ? 'Save rule' : 'Create rule'} busy={saving} busyLabel="Saving…" disabled={!canSave} />}
    >
      {error !== undefined && editing && rule === undefined && (
        <p className="notice" role="note">
          The rule was created, but not all of its distribution was saved. Saving again completes this rule.
        </p>
      )}
      <ErrorBanner error={errors.general} />
      <SegmentPicker
        ns={ns}
        segments={segments}
        value={choice}
        onChange={(next) => {
          refusal.edited('segments');
          setChoice(next);
        }}
        error={errors.byField['segments']}
      />
      <DistributionFields
        variants={flag.variants}
        rows={rows}
        value={percents}
        check={check}
        onChange={(next) => {
          refusal.edited('distribution');
          setPercents(next);
        }}
        {...(rule !== undefined ? { locked: splitLock } : {})}
      />
      <FieldError error={errors.byField['distribution']} />
      <WindowFields
        value={bounds}
        onChange={(next) => {
          refusal.edited('validFrom', 'validUntil');
          setBounds(next);
        }}
        noun="rule" errors={{ from: errors.byField['validFrom'], until: errors.byField['validUntil'] ?? windowChecks.until }} />
    </Dialog>
  );
}
