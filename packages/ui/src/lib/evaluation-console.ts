/**
 * The evaluation console's logic: the request built from the form, the same request as a curl
 * command a user can paste into a shell, the reason of an answer in words, and the short history
 * of evaluations to run again.
 */
import type { EvaluationReason, FlagType } from '@ensign/core';

/** Which evaluation route a request goes to. */
export type EvaluationKind = 'variant' | 'boolean';

/** One row of the context editor; rows without a key are not sent. */
export interface ContextRow {
  key: string;
  value: string;
}

export interface EvaluationRequestBody {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

/** The route that evaluates a flag of this type. */
export const kindOfFlag = (type: FlagType): EvaluationKind => (type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant');

/** The context the rows describe; a key given twice keeps its last value. */
export function contextOf(rows: readonly ContextRow[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key !== '') context[key] = row.value;
  }
  return context;
}

/** The rows that show a context, plus an empty one to type into. */
export function rowsOf(context: Readonly<Record<string, string>>): ContextRow[] {
  return [...Object.entries(context).map(([key, value]) => ({ key, value })), { key: '', value: '' }];
}

/** `/evaluate/v1/namespaces/<ns>/<kind>`. */
export function evaluationPath(namespaceKey: string, kind: EvaluationKind): string {
  return `/evaluate/v1/namespaces/${encodeURIComponent(namespaceKey)}/${kind}`;
}

/** Quotes one word for a POSIX shell: single quotes, with each `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface CurlOptions {
  /** `window.location.origin`: the service's public address as the browser sees it. */
  origin: string;
  kind: EvaluationKind;
  body: EvaluationRequestBody;
  /**
   * Adds an `Authorization` header reading the token from `$ENSIGN_TOKEN` (double-quoted so the
   * shell expands it); the UI's own credential is never written out.
   */
  withToken: boolean;
}

/** The request as a curl command, one option per line. */
export function curlCommand({ origin, kind, body, withToken }: CurlOptions): string {
  const lines = [
    `curl -X POST ${shellQuote(`${origin.replace(/\/+$/, '')}${evaluationPath(body.namespaceKey, kind)}`)}`,
    `-H 'Content-Type: application/json'`,
    ...(withToken ? ['-H "Authorization: Bearer $ENSIGN_TOKEN"'] : []),
    `-d ${shellQuote(JSON.stringify(body))}`,
  ];
  return lines.join(' \\\n  ');
}

const REASONS: Readonly<Record<EvaluationKind, Readonly<Record<EvaluationReason, string>>>> = {
  variant: {
    MATCH_EVALUATION_REASON: 'Matched a rule',
    DEFAULT_EVALUATION_REASON: 'No rule matched: the default variant applies',
    FLAG_DISABLED_EVALUATION_REASON: 'The flag is disabled',
    UNKNOWN_EVALUATION_REASON: 'No rule matched, and the flag has no default variant',
  },
  boolean: {
    MATCH_EVALUATION_REASON: 'Matched a rollout',
    DEFAULT_EVALUATION_REASON: 'No rollout matched: the flag’s default value applies',
    FLAG_DISABLED_EVALUATION_REASON: 'The flag is disabled',
    UNKNOWN_EVALUATION_REASON: 'Unknown reason',
  },
};

/** The reason of an answer in words; a reason this UI does not know is shown as sent. */
export function reasonText(kind: EvaluationKind, reason: string): string {
  return (REASONS[kind] as Readonly<Record<string, string>>)[reason] ?? reason;
}

/** A variant attachment pretty-printed when it is JSON, else as stored; `""` when there is none. */
export function prettyAttachment(attachment: string): string {
  if (attachment === '') return '';
  try {
    return JSON.stringify(JSON.parse(attachment), null, 2);
  } catch {
    return attachment;
  }
}

/** One evaluation the history remembers, with a one-line summary of its answer. */
export interface HistoryEntry {
  kind: EvaluationKind;
  body: EvaluationRequestBody;
  summary: string;
  /** When it ran, as an ISO string. */
  at: string;
}

/** How many evaluations the history keeps. */
export const HISTORY_SIZE = 8;

/** The history with `entry` first; an earlier run of the very same request is dropped. */
export function addToHistory(history: readonly HistoryEntry[], entry: HistoryEntry, size = HISTORY_SIZE): HistoryEntry[] {
  const same = (other: HistoryEntry) => other.kind === entry.kind && sameRequest(other.body, entry.body);
  return [entry, ...history.filter((other) => !same(other))].slice(0, size);
}

function sameRequest(a: EvaluationRequestBody, b: EvaluationRequestBody): boolean {
  const keys = Object.keys(a.context);
  return (
    a.namespaceKey === b.namespaceKey &&
    a.flagKey === b.flagKey &&
    a.entityId === b.entityId &&
    keys.length === Object.keys(b.context).length &&
    keys.every((key) => b.context[key] === a.context[key])
  );
}

/** Reads a stored history, dropping whatever does not look like one. */
export function parseHistory(text: string | null | undefined): HistoryEntry[] {
  if (text === null || text === undefined || text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isHistoryEntry).slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function isHistoryEntry(value: unknown): value is HistoryEntry {
  const entry = value as Partial<HistoryEntry> | null;
  const body = entry?.body as Partial<EvaluationRequestBody> | undefined;
  return (
    (entry?.kind === 'variant' || entry?.kind === 'boolean') &&
    typeof entry.summary === 'string' &&
    typeof entry.at === 'string' &&
    typeof body?.namespaceKey === 'string' &&
    typeof body.flagKey === 'string' &&
    typeof body.entityId === 'string' &&
    typeof body.context === 'object' &&
    body.context !== null &&
    Object.values(body.context).every((v) => typeof v === 'string')
  );
}

/** A random entity id (a version 4 UUID) from `crypto.getRandomValues`, which plain-HTTP pages have too. */
export function randomEntityId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
