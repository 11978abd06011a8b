/**
 * Splits an error of the service between the fields of a form: a message that names one of the
 * form's fields is shown next to it, anything else above the form.
 */
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
