/**
 * Adds or edits a rollout of a boolean flag: a threshold (a percentage of entities, and a ramp of
 * later percentages by time) or segments, the value those entities get, and when it applies. A
 * rollout keeps its kind once created.
 */
import type { Rollout, Segment } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ApiError } from '../../api/client.js';
import { isDrafted } from '../../api/drafting.js';
import { rollouts, type RolloutInput } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors, useFreshRefusal } from '../../hooks/form-errors.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { parsePercent, percentText } from '../../lib/distributions.js';
import { rampFieldOf, rampHasProblems, rampInput, rampProblems, rampRows, type RampRow } from '../../lib/ramp.js';
import { segmentKeysOf, segmentRefInput } from '../../lib/segment-ref.js';
import { windowDraft, windowInput, windowProblems } from '../../lib/validity-window.js';
import { RampFields } from './ramp-fields.js';
import { SegmentPicker, type SegmentChoice } from './segment-picker.js';
import { ThresholdFields } from './threshold-fields.js';
import { WindowFields } from './window-fields.js';

type Kind = 'threshold' | 'segment';

export interface RolloutDialogProps {
  ns: string;
  flagKey: string;
  open: boolean;
  /** The rollout to edit; none to add one. */
  rollout: Rollout | undefined;
  nextRank: number;
  segments: readonly Segment[];
  onClose: () => void;
}

const FIELDS = {
  'threshold.percentage': 'percentage',
  'segment.segmentKey': 'segments',
  'segment.segmentKeys': 'segments',
  'segmentKey or segmentKeys': 'segments',
  description: 'description',
  validFrom: 'validFrom',
  validUntil: 'validUntil',
  ramp: 'ramp',
  'threshold.ramp': 'ramp',
};

export function RolloutDialog({ ns, flagKey, open, rollout, nextRank, segments, onClose }: RolloutDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const [kind, setKind] = useState<Kind>(rollout?.type === 'SEGMENT_ROLLOUT_TYPE' ? 'segment' : 'threshold');
  const [percentage, setPercentage] = useState(rollout?.threshold === undefined ? '50' : percentText(rollout.threshold.percentage));
  const [choice, setChoice] = useState<SegmentChoice>(() => ({
    keys: rollout?.segment === undefined ? [] : segmentKeysOf(rollout.segment),
    operator: rollout?.segment?.segmentOperator ?? 'OR_SEGMENT_OPERATOR',
  }));
  const [value, setValue] = useState(rollout === undefined ? true : (rollout.threshold?.value ?? rollout.segment?.value ?? true));
  const [description, setDescription] = useState(rollout?.description ?? '');
  const zone = useTimeZone();
  const [bounds, setBounds] = useState(() => windowDraft(rollout, zone));
  const [ramp, setRamp] = useState<RampRow[]>(() => rampRows(rollout?.threshold?.ramp, zone));

  const save = useMutation({
    mutationFn: (input: Omit<RolloutInput, 'rank'>) => (rollout === undefined ? rollouts.create(ns, flagKey, { ...input, rank: nextRank }) : rollouts.update(ns, flagKey, rollout.id, input)),
    onSuccess: async (saved) => {
      if (!isDrafted(saved)) toast(rollout === undefined ? 'Rollout added' : 'Rollout saved');
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.rollouts(ns, flagKey) });
    },
  });
  // A refusal naming one step of the ramp is shown beside that step.
  const refusal = save.error instanceof ApiError ? save.error : undefined;
  const rampRefusal = rampFieldOf(refusal?.field, ramp);
  const refusedFields = useFreshRefusal(save.error);
  const refused = formErrors(rampRefusal === undefined ? save.error : undefined, FIELDS);
  const errors = { general: refused.general, byField: refusedFields.fresh(refused.byField) };
  const rampRefusalNow = refusedFields.fresh({ ramp: rampRefusal })['ramp'];
  /** `set` of a field that also drops the refusal's message about it. */
  const editing = <T,>(field: string, set: (value: T) => void) => (value: T) => {
    refusedFields.edited(field);
    set(value);
  };
  const percent = parsePercent(percentage);
  const percentError = errors.byField['percentage'] ?? (kind === 'threshold' && percent === undefined ? 'The percentage must be a number from 0 to 100.' : undefined);
  const windowChecks = windowProblems(bounds, zone);
  const rampChecks = kind === 'threshold' ? rampProblems(ramp, percent, zone) : [];
  const rampShown = rampRefusalNow === undefined ? rampChecks : rampChecks.map((p, i) => (i === rampRefusalNow.row ? { ...p, [rampRefusalNow.input]: refusal?.message ?? '' } : p));
  const canSave =
    !save.isPending && windowChecks.until === undefined && !rampHasProblems(rampChecks) && (kind === 'threshold' ? percent !== undefined && percentage.trim() !== '' : choice.keys.length > 0);

  const submit = () => {
    if (!canSave) return;
    const when = windowInput(bounds, zone, rollout);
    const steps = rampInput(ramp, zone, rollout?.threshold?.ramp);
    const input: Omit<RolloutInput, 'rank'> =
      kind === 'threshold'
        ? { description, threshold: { percentage: percent ?? 0, value, ...(steps === undefined ? {} : { ramp: steps }) }, ...when }
        : { description, segment: { ...segmentRefInput(choice.keys, choice.operator), value }, ...when };
    save.mutate(input);
  };

  return (
    <Dialog
      open={open}
      wide
      title={rollout === undefined ? 'Add rollout' : 'Edit rollout'}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogButtons onCancel={onClose} label={rollout === undefined ? 'Create rollout' : 'Save rollout'} busy={save.isPending} busyLabel="Saving…" disabled={!canSave} />}
    >
      <ErrorBanner error={errors.general} />
      {rollout === undefined ? (
        <fieldset className="choice-group choice-inline">
          <legend>Type</legend>
          <label className="choice">
            <input type="radio" name={`${id}-kind`} checked={kind === 'threshold'} onChange={() => setKind('threshold')} />
            <span>Threshold</span>
          </label>
          <label className="choice">
            <input type="radio" name={`${id}-kind`} checked={kind === 'segment'} onChange={() => setKind('segment')} />
            <span>Segment</span>
          </label>
        </fieldset>
      ) : (
        <p className="muted">{kind === 'threshold' ? 'Threshold rollout' : 'Segment rollout'} (the type of a rollout cannot change).</p>
      )}
      {kind === 'threshold' ? (
        <>
          <ThresholdFields value={percentage} onChange={editing('percentage', setPercentage)} error={percentError} />
          <RampFields rows={ramp} onChange={editing('ramp', setRamp)} problems={rampShown} error={errors.byField['ramp']} />
        </>
      ) : (
        <SegmentPicker ns={ns} segments={segments} value={choice} onChange={editing('segments', setChoice)} error={errors.byField['segments']} />
      )}
      <Field label="Value" hint={kind === 'threshold' ? 'What the flag evaluates to for those entities.' : 'What the flag evaluates to for entities in the segments.'}>
        <select value={String(value)} onChange={(e) => setValue(e.target.value === 'true')}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      </Field>
      <Field label="Description" error={errors.byField['description']}>
        <input value={description} autoComplete="off" onChange={(e) => editing('description', setDescription)(e.target.value)} />
      </Field>
      <WindowFields
        value={bounds}
        onChange={(next) => {
          refusedFields.edited('validFrom', 'validUntil');
          setBounds(next);
        }}
        noun="rollout" errors={{ from: errors.byField['validFrom'], until: errors.byField['validUntil'] ?? windowChecks.until }} />
    </Dialog>
  );
}
