/**
 * Splits an error of the service between the fields of a form: a message that names one of the
 * form's fields is shown next to it, anything else above the form.
 */
import { useState } from 'react';
import { ApiError } from '../api/client.js';
import { reasonOfMessage } from '../lib/field-errors.js';

export interface FormErrors {
  /** The reason, by field name, for the fields the message names. */
  byField: Readonly<Record<string, string>>;
  /** What belongs to no field of this form. */
  general: string | undefined;
}

export const NO_ERRORS: FormErrors = { byField: {}, general: undefined };

/**
 * `fields` maps the service's field names to the form's (`segmentKey` → `segment`, say); a field
 * the service names but the form lacks is shown as a general error, whole.
 */
export function formErrors(error: unknown, fields: Readonly<Record<string, string>> | readonly string[]): FormErrors {
  if (error === null || error === undefined) return NO_ERRORS;
  if (!(error instanceof ApiError)) return { byField: {}, general: (error as Error).message ?? String(error) };
  const map: Readonly<Record<string, string>> = Array.isArray(fields) ? Object.fromEntries(fields.map((f) => [f, f])) : (fields as Record<string, string>);
  const target = error.field === undefined ? undefined : map[error.field];
  if (target === undefined) return { byField: {}, general: error.message };
  return { byField: { [target]: reasonOfMessage(error.message) }, general: undefined };
}

const NONE: ReadonlySet<string> = new Set();

export interface FreshRefusal {
  /** `byField` without the fields edited since the refusal came: their messages were about what they held then. */
  fresh: <T>(byField: Readonly<Record<string, T>>) => Readonly<Record<string, T>>;
  /** Marks fields as edited since the refusal. */
  edited: (...fields: string[]) => void;
}

/**
 * The field messages of a refusal (`error`) that still describe the form: a message goes as soon
 * as its field is edited, so none names a value the field no longer holds. The next refusal shows
 * whole again.
 */
export function useFreshRefusal(error: unknown): FreshRefusal {
  const [edits, setEdits] = useState<{ of: unknown; fields: ReadonlySet<string> }>({ of: undefined, fields: NONE });
  const fields = edits.of === error ? edits.fields : NONE;
  return {
    fresh: (byField) => (fields.size === 0 ? byField : Object.fromEntries(Object.entries(byField).filter(([field]) => !fields.has(field)))),
    edited: (...names) => {
      if (error === null || error === undefined || names.every((name) => fields.has(name))) return;
      setEdits((old) => ({ of: error, fields: new Set([...(old.of === error ? old.fields : []), ...names]) }));
    },
  };
}
