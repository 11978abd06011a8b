/** The Value input of the constraint dialog, fitted to the comparison: none, text, number, date-time picker or list. */
import { useId, type RefObject } from 'react';
import { Field, type FieldMessage } from '../../components/field.js';
import { type ConstraintDraft, draftWithTimeZone, valueOfDraft } from '../../lib/constraint-draft.js';
import { neverMatches, valueKind } from '../../lib/constraint-operators.js';
import { ListValueEditor } from './list-value-editor.js';

export interface ConstraintValueFieldProps {
  draft: ConstraintDraft;
  onChange: (draft: ConstraintDraft) => void;
  error: FieldMessage | undefined;
  /** The browser's own time zone, offered beside UTC. */
  localTimeZone: string;
  /** The number input, so the dialog can tell text the browser could not read as a number. */
  numberRef: RefObject<HTMLInputElement | null>;
}

export function ConstraintValueField({ draft, onChange, error, localTimeZone, numberRef }: ConstraintValueFieldProps) {
  const zoneId = useId();
  const kind = valueKind(draft.type, draft.operator);
  switch (kind) {
    case 'none':
      return <p className="muted constraint-no-value">This operator compares no value.</p>;
    case 'list':
      return <ListValueEditor items={draft.items} numeric={draft.type === 'NUMBER_COMPARISON_TYPE'} error={error} onChange={(items) => onChange({ ...draft, items })} />;
    case 'number':
      return (
        <Field label="Value" error={error}>
          <input ref={numberRef} type="number" step="any" inputMode="decimal" value={draft.text} onChange={(e) => onChange({ ...draft, text: e.target.value })} />
        </Field>
      );
    case 'datetime': {
      const sent = valueOfDraft(draft);
      const zones = localTimeZone === 'UTC' ? ['UTC'] : [localTimeZone, 'UTC'];
      return (
        <div className="datetime-value">
          <div className="row">
            <Field
              label="Value"
              error={error}
              hint={neverMatches(draft.type, draft.operator) ? 'A date-time cannot be one of a list: the service keeps one date-time and this constraint never matches.' : undefined}
            >
              <input type="datetime-local" value={draft.wallTime} onChange={(e) => onChange({ ...draft, wallTime: e.target.value })} />
            </Field>
            <div className="field">
              <label htmlFor={zoneId}>Time zone</label>
              <select id={zoneId} value={draft.timeZone} onChange={(e) => onChange(draftWithTimeZone(draft, e.target.value))}>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone === localTimeZone && zone !== 'UTC' ? `${zone} (this browser)` : zone}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="field-hint timezone-note">
            {draft.wallTime === '' && draft.text !== ''
              ? `Stored value “${draft.text}” is not a date-time this picker can show; pick one to replace it.`
              : sent === ''
                ? `Read in ${draft.timeZone}; stored in UTC (RFC 3339).`
                : `Read in ${draft.timeZone}; stored as ${sent}.`}
          </p>
        </div>
      );
    }
    default:
      return (
        <Field label="Value" error={error}>
          <input value={draft.text} autoComplete="off" onChange={(e) => onChange({ ...draft, text: e.target.value })} />
        </Field>
      );
  }
}
