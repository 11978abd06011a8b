/**
 * Adds or edits a rollout of a boolean flag: a threshold (a percentage of entities) or segments,
 * and the value those entities get. A rollout keeps its kind once created.
 */
import type { Rollout, Segment } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { rollouts, type RolloutInput } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors } from '../../hooks/form-errors.js';
import { parsePercent, percentText } from '../../lib/distributions.js';
import { segmentKeysOf, segmentRefInput } from '../../lib/segment-ref.js';
import { SegmentPicker, type SegmentChoice } from './segment-picker.js';
import { ThresholdFields } from './threshold-fields.js';

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

  const save = useMutation({
    mutationFn: (input: Omit<RolloutInput, 'rank'>) => (rollout === undefined ? rollouts.create(ns, flagKey, { ...input, rank: nextRank }) : rollouts.update(ns, flagKey, rollout.id, input)),
    onSuccess: async () => {
      toast(rollout === undefined ? 'Rollout added' : 'Rollout saved');
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.rollouts(ns, flagKey) });
    },
  });
  const errors = formErrors(save.error, FIELDS);
  const percent = parsePercent(percentage);
  const percentError = errors.byField['percentage'] ?? (kind === 'threshold' && percent === undefined ? 'The percentage must be a number from 0 to 100.' : undefined);
  const canSave = !save.isPending && (kind === 'threshold' ? percent !== undefined && percentage.trim() !== '' : choice.keys.length > 0);

  const submit = () => {
    if (!canSave) return;
    const input: Omit<RolloutInput, 'rank'> =
      kind === 'threshold' ? { description, threshold: { percentage: percent ?? 0, value } } : { description, segment: { ...segmentRefInput(choice.keys, choice.operator), value } };
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
        <ThresholdFields value={percentage} onChange={setPercentage} error={percentError} />
      ) : (
        <SegmentPicker ns={ns} segments={segments} value={choice} onChange={setChoice} error={errors.byField['segments']} />
      )}
      <Field label="Value" hint={kind === 'threshold' ? 'What the flag evaluates to for those entities.' : 'What the flag evaluates to for entities in the segments.'}>
        <select value={String(value)} onChange={(e) => setValue(e.target.value === 'true')}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      </Field>
      <Field label="Description" error={errors.byField['description']}>
        <input value={description} autoComplete="off" onChange={(e) => setDescription(e.target.value)} />
      </Field>
    </Dialog>
  );
}
