/** A labelled form control with its hint and, when the service refused it, the reason next to it. */
import { cloneElement, type ReactElement, useId } from 'react';
import type { UserMessage } from '../lib/user-messages.js';
import { MessageText } from './status.js';

/** A field's problem: a sentence, or a message with links (a duplicate key links to the existing resource). */
export type FieldMessage = string | UserMessage;

export interface FieldProps {
  label: string;
  /** What is wrong with this field: a check before submitting, or the service's refusal. */
  error?: FieldMessage | undefined;
  hint?: string;
  /** One input, select or textarea; it gets the id, and aria attributes for the hint and error. */
  children: ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }>;
  className?: string;
}

export function Field({ label, error, hint, children, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId].filter(Boolean).join(' ');
  return (
    <div className={['field', error === undefined ? '' : 'field-invalid', className ?? ''].join(' ').trim()}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': error !== undefined,
        ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }),
      })}
      {hint !== undefined && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** The service's message about a field, where the field's `aria-describedby` can name it (`id`). */
export function FieldError({ id, error }: { id?: string; error: FieldMessage | undefined }) {
  if (error === undefined) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {typeof error === 'string' ? error : <MessageText message={error} />}
    </p>
  );
}
