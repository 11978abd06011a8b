/** The console's request: flag (searchable), how to evaluate it, entity id (or a random one), context rows, and Evaluate. */
import type { Flag } from '@ensign/core';
import { type FormEvent, useId, useMemo } from 'react';
import { Link } from 'react-router';
import { Field } from '../../components/field.js';
import { paths } from '../../layout/namespace.js';
import { type ContextRow, type EvaluationKind, randomEntityId } from '../../lib/evaluation-console.js';
import { ContextRowsEditor } from './context-rows-editor.js';

export interface ConsoleForm {
  flagKey: string;
  /** The route chosen by hand; undefined follows the flag's type. */
  kindOverride: EvaluationKind | undefined;
  entityId: string;
  rows: ContextRow[];
}

export interface EvaluationFormProps {
  ns: string;
  form: ConsoleForm;
  onChange: (form: ConsoleForm) => void;
  onEvaluate: () => void;
  /** The flags of the namespace; undefined while loading. */
  flags: Flag[] | undefined;
  flag: Flag | undefined;
  kind: EvaluationKind;
  pending: boolean;
  errors: { flagKey?: string | undefined; entityId?: string | undefined };
}

export function EvaluationForm({ ns, form, onChange, onEvaluate, flags, flag, kind, pending, errors }: EvaluationFormProps) {
  const listId = useId();
  const kindId = useId();
  // The same elements from key to key, so typing in the flag field does not re-render every suggestion.
  const suggestions = useMemo(
    () =>
      (flags ?? []).map((f) => (
        <option key={f.key} value={f.key}>
          {f.name}
        </option>
      )),
    [flags],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onEvaluate();
  };
  const unknownFlag = flags !== undefined && form.flagKey.trim() !== '' && flag === undefined;

  return (
    <form className="card-body" onSubmit={submit} noValidate>
      <Field
        label="Flag"
        error={errors.flagKey}
        hint={flags !== undefined && flags.length === 0 ? 'This namespace has no flags yet.' : 'Type to search the flags of this namespace.'}
      >
        <input
          list={listId}
          className="mono"
          autoComplete="off"
          spellCheck={false}
          value={form.flagKey}
          onChange={(e) => onChange({ ...form, flagKey: e.target.value, kindOverride: undefined })}
        />
      </Field>
      <datalist id={listId}>{suggestions}</datalist>
      <div className="flag-summary" aria-live="polite">
        {flag !== undefined && (
          <>
            <span className="badge">{flag.type === 'BOOLEAN_FLAG_TYPE' ? 'Boolean' : 'Variant'}</span>
            <span className={flag.enabled ? 'badge badge-on' : 'badge badge-off'}>{flag.enabled ? 'Enabled' : 'Disabled'}</span>
            <span className="muted flag-summary-name" title={flag.name}>
              {flag.name}
            </span>
            <Link to={paths.flag(ns, flag.key)}>Open flag</Link>
          </>
        )}
        {unknownFlag && <span className="muted">No flag “{form.flagKey}” in this namespace; the service will say so.</span>}
      </div>
      <fieldset className="fieldset kind-choice" aria-describedby={kindId}>
        <legend>Evaluate as</legend>
        {(['variant', 'boolean'] as const).map((value) => (
          <label key={value} className="radio">
            <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => onChange({ ...form, kindOverride: value })} />
            {value === 'variant' ? 'Variant' : 'Boolean'}
          </label>
        ))}
        <span className="field-hint" id={kindId}>
          {form.kindOverride === undefined ? 'Follows the flag’s type.' : 'Chosen by hand.'}
        </span>
      </fieldset>
      <div className="entity-row">
        <Field label="Entity ID" error={errors.entityId} hint="Who is asking: the same id always lands in the same bucket.">
          <input className="mono" autoComplete="off" spellCheck={false} value={form.entityId} onChange={(e) => onChange({ ...form, entityId: e.target.value })} />
        </Field>
        <button type="button" className="button" onClick={() => onChange({ ...form, entityId: randomEntityId() })}>
          Random
        </button>
      </div>
      <ContextRowsEditor rows={form.rows} onChange={(rows) => onChange({ ...form, rows })} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Evaluating…' : 'Evaluate'}
        </button>
      </div>
    </form>
  );
}
