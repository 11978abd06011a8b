/**
 * When a rule or rollout applies: "Valid from" and "Valid until", date-times read in the user's
 * time zone; either may be left empty (no start, no end).
 */
import { Field, type FieldMessage } from '../../components/field.js';
import { useZoneHint } from '../../hooks/time-zone.js';
import type { WindowDraft } from '../../lib/validity-window.js';

export interface WindowFieldsProps {
  value: WindowDraft;
  onChange: (value: WindowDraft) => void;
  errors: { from?: FieldMessage | undefined; until?: FieldMessage | undefined };
  /** "rule" or "rollout", for the hint. */
  noun: string;
}

export function WindowFields({ value, onChange, errors, noun }: WindowFieldsProps) {
  const zone = useZoneHint();
  return (
    <fieldset className="fieldset window-fields">
      <legend>When it applies</legend>
      <div className="row">
        <Field label="Valid from" error={errors.from} hint="Empty: from now on.">
          <input type="datetime-local" value={value.from} onChange={(e) => onChange({ ...value, from: e.target.value })} />
        </Field>
        <Field label="Valid until" error={errors.until} hint="Empty: no end.">
          <input type="datetime-local" value={value.until} onChange={(e) => onChange({ ...value, until: e.target.value })} />
        </Field>
      </div>
      <p className="field-hint">
        Outside this window the {noun} is skipped. {zone}
      </p>
    </fieldset>
  );
}
