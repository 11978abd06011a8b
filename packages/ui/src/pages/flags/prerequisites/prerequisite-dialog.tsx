/**
 * Adds a prerequisite: a flag of the namespace and what it must give, on or off, or (a variant
 * flag) one of some of its variants. The service refuses a parent that closes a cycle, or is
 * missing, naming it; the refusal is shown beside the field it is about.
 */
import type { Flag, Prerequisite } from '@ensign/core';
import { useId, useState } from 'react';
import { ApiError } from '../../../api/client.js';
import { Dialog, DialogButtons } from '../../../components/dialog.js';
import { Field, FieldError } from '../../../components/field.js';
import { KeyText } from '../../../components/key-text.js';
import { ErrorBanner } from '../../../components/status.js';
import { useToast } from '../../../components/toast.js';
import { formErrors } from '../../../hooks/form-errors.js';
import { type ConditionChoice, parentCandidates, prerequisiteOf, withPrerequisite } from '../../../lib/prerequisites.js';
import { usePrerequisitesSave } from './use-prerequisites-save.js';

export interface PrerequisiteDialogProps {
  ns: string;
  flag: Flag;
  /** The namespace's flags. */
  flags: readonly Flag[];
  open: boolean;
  onClose: () => void;
}

/** The form's field a refusal of the prerequisite at `index` names: `prerequisites[1].variants` → `variants`. */
/** A flag as the parent choice names it: its key, and its name where that says more. */
const candidateLabel = (f: Flag): string => (f.name === '' || f.name === f.key ? f.key : `${f.key} (${f.name})`);

function fieldsFor(error: unknown, index: number): Record<string, string> {
  if (!(error instanceof ApiError) || error.field === undefined) return {};
  const match = error.field.match(/^prerequisites\[(\d+)\](?:\.(\w+))?$/);
  if (match === null || Number(match[1]) !== index) return {};
  return { [error.field]: match[2] === 'variants' ? 'variants' : 'flagKey' };
}

export function PrerequisiteDialog({ ns, flag, flags, open, onClose }: PrerequisiteDialogProps) {
  const toast = useToast();
  const id = useId();
  const candidates = parentCandidates(flag, flags);
  const [parentKey, setParentKey] = useState(candidates[0]?.key ?? '');
  const [choice, setChoice] = useState<ConditionChoice>('on');
  const [variants, setVariants] = useState<string[]>([]);
  const parent = candidates.find((f) => f.key === parentKey);
  const variantParent = parent?.type === 'VARIANT_FLAG_TYPE';
  const save = usePrerequisitesSave(ns, flag, () => {
    toast(`Prerequisite ${parentKey} added`);
    onClose();
  });
  const condition: ConditionChoice = choice === 'variants' && !variantParent ? 'on' : choice;
  const added = prerequisiteOf(parentKey, condition, variants);
  const list: Prerequisite[] = added === undefined ? (flag.prerequisites ?? []) : withPrerequisite(flag.prerequisites, added);
  const errors = formErrors(save.error, fieldsFor(save.error, list.findIndex((p) => p.flagKey === parentKey)));
  const canSave = added !== undefined && !save.isPending;

  const pick = (key: string) => {
    setParentKey(key);
    setVariants([]);
    if (choice === 'variants') setChoice('on');
  };
  const toggle = (key: string, on: boolean) => setVariants((current) => (on ? [...current, key] : current.filter((v) => v !== key)));

  return (
    <Dialog
      open={open}
      title="Add prerequisite"
      onClose={onClose}
      onSubmit={() => {
        if (canSave) save.mutate(list);
      }}
      footer={<DialogButtons onCancel={onClose} label="Add prerequisite" busy={save.isPending} busyLabel="Saving…" disabled={!canSave} />}
    >
      <ErrorBanner error={errors.general} />
      <Field label="Flag" hint={`${flag.key} is served only when this flag holds for the entity.`} error={errors.byField['flagKey']}>
        <select value={parentKey} title={parent === undefined ? undefined : candidateLabel(parent)} onChange={(e) => pick(e.target.value)}>
          {candidates.length === 0 && <option value="">No other flag to choose</option>}
          {candidates.map((f) => (
            <option key={f.key} value={f.key}>
              {candidateLabel(f)}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="choice-group">
        <legend>Condition</legend>
        <label className="choice">
          <input type="radio" name={`${id}-condition`} checked={choice === 'on'} onChange={() => setChoice('on')} />
          <span>Is on</span>
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-condition`} checked={choice === 'off'} onChange={() => setChoice('off')} />
          <span>Is off</span>
        </label>
        {variantParent && (
          <label className="choice">
            <input type="radio" name={`${id}-condition`} checked={choice === 'variants'} onChange={() => setChoice('variants')} />
            <span>Serves one of these variants</span>
          </label>
        )}
      </fieldset>
      {variantParent && choice === 'variants' && (
        <fieldset className={errors.byField['variants'] === undefined ? 'fieldset prerequisite-variants' : 'fieldset prerequisite-variants field-invalid'}>
          <legend>Variants</legend>
          {parent.variants.length === 0 ? (
            <p className="muted">{parent.key} has no variants yet.</p>
          ) : (
            parent.variants.map((v) => (
              <label key={v.id} className="segment-option">
                <input type="checkbox" checked={variants.includes(v.key)} onChange={(e) => toggle(v.key, e.target.checked)} />
                <KeyText value={v.key} />
              </label>
            ))
          )}
          <FieldError error={errors.byField['variants']} />
        </fieldset>
      )}
      <p className="field-hint">
        {parent?.type === 'BOOLEAN_FLAG_TYPE'
          ? 'A boolean flag is on for an entity when it evaluates to true for it.'
          : 'A variant flag is on when it is enabled; it serves a variant when that is its answer for the entity (its default variant included).'}
      </p>
    </Dialog>
  );
}
