/** The message the UI shows for a failure: the service's refusal as `user-messages.ts` words it, or any other error's text. */
import { type MessageContext, type UserMessage, userMessage } from '../lib/user-messages.js';
import { ApiError } from './client.js';

/** What to show for `error` (nothing for none); `context` lets a message list what it is about. */
export function shownError(error: unknown, context?: MessageContext): UserMessage | undefined {
  if (error === null || error === undefined) return undefined;
  if (error instanceof ApiError) return context === undefined ? error.shown : userMessage(error.serviceMessage, context);
  if (Array.isArray(error)) return error as UserMessage;
  return [error instanceof Error ? error.message : String(error)];
}

/**
 * A refusal split between a form's fields: the message of the field it names (the service's
 * names mapped to the form's by `fields`), or above the form when it names none of them.
 */
export function shownErrors(error: unknown, fields: Readonly<Record<string, string>> | readonly string[]): { byField: Readonly<Record<string, UserMessage>>; general: UserMessage | undefined } {
  const shown = shownError(error);
  if (shown === undefined) return { byField: {}, general: undefined };
  const map: Readonly<Record<string, string>> = Array.isArray(fields) ? Object.fromEntries(fields.map((f) => [f, f])) : (fields as Record<string, string>);
  const target = error instanceof ApiError && error.field !== undefined ? map[error.field] : undefined;
  return target === undefined ? { byField: {}, general: shown } : { byField: { [target]: shown }, general: undefined };
}
