/**
 * A variant's attachment: JSON typed into a text area, checked as it is typed (the message says
 * where parsing stopped), with a "Format" button that lays it out. The service's own refusal wins.
 */
import { useMemo } from 'react';
import { Field } from '../../components/field.js';
import { checkAttachment, formatJson } from '../../lib/json-text.js';

export function AttachmentField({ value, onChange, serviceError }: { value: string; onChange: (value: string) => void; serviceError: string | undefined }) {
  const check = useMemo(() => checkAttachment(value), [value]);
  const empty = value.trim() === '';
  const error = serviceError ?? (check.ok ? undefined : `Invalid JSON: ${check.message}`);
  return (
    <div className="attachment-field">
      <Field label="Attachment" error={error} hint={error === undefined ? 'Optional JSON handed to applications with the variant, e.g. {"color": "blue"}.' : undefined}>
        <textarea className="code" rows={8} spellCheck={false} value={value} onChange={(e) => onChange(e.target.value)} />
      </Field>
      <div className="attachment-actions">
        <span className="muted">{empty ? 'No attachment' : check.ok ? 'Valid JSON' : ''}</span>
        <button type="button" className="button button-small" disabled={empty || !check.ok} onClick={() => onChange(formatJson(value))}>
          Format
        </button>
      </div>
    </div>
  );
}

/** Whether an attachment as typed can be saved. */
export const attachmentSavable = (value: string): boolean => checkAttachment(value).ok;
