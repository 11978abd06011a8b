/**
 * An import through a running Ensign: each document posted to `POST /api/v1/namespaces/{ns}/import`
 * (one change per document there). Every namespace's first document is tried first with
 * `dryRun=true`, so a conflict or a missing segment anywhere is found before anything is written.
 */
import type { KeyChanges } from '@ensign/control-plane';
import { encodeFliptDocument, type FliptDocument } from '@ensign/core';
import { foldChanges, NO_CHANGES, type ImportOutcome } from './import-outcome.js';
import { RemoteError, type RemoteApi } from './remote-api.js';

export interface ImportFlags {
  drop: boolean;
  skipExisting: boolean;
}

const importPath = (doc: FliptDocument, query: Record<string, boolean>): string =>
  `/api/v1/namespaces/${encodeURIComponent(doc.namespace.key)}/import?${new URLSearchParams(Object.entries(query).map(([name, on]): [string, string] => [name, String(on)]))}`;

const keyList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : []);

/** The keys of one kind the route's answer (`{created, updated, deleted, unchanged}`) names. */
function changesOf(value: unknown): KeyChanges {
  const changes = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { created: keyList(changes['created']), updated: keyList(changes['updated']), deleted: keyList(changes['deleted']), unchanged: keyList(changes['unchanged']) };
}

/** The route's answer: what the import did to the namespace's flags and segments, and its revision. */
function answerOf(answer: unknown): { revision: number; flags: KeyChanges; segments: KeyChanges } {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const revision = typeof body['revision'] === 'number' ? body['revision'] : 0;
  return { revision, flags: changesOf(body['flags']), segments: changesOf(body['segments']) };
}

/** Whether the server holds the namespace (the import creates it when not). */
async function namespaceExists(api: RemoteApi, key: string): Promise<boolean> {
  try {
    await api.get(`/api/v1/namespaces/${encodeURIComponent(key)}`);
    return true;
  } catch (err) {
    if (err instanceof RemoteError && err.status === 404) return false;
    throw err;
  }
}

/**
 * The server's refusal in the words of a database import: the route numbers the one document it
 * is sent as document 1, which is this stream's document `index`.
 */
function explain(err: unknown, doc: FliptDocument): unknown {
  if (!(err instanceof RemoteError)) return err;
  if ((err.status === 404 || err.status === 405) && err.call !== undefined) {
    return new Error(`${err.message} (the server has no import route: Ensign serves POST /api/v1/namespaces/{ns}/import, Flipt does not)`);
  }
  if (err.status === 400 && doc.origin !== undefined) return new Error(err.reason.replace(/^document 1\b/, `document ${doc.origin.index}`));
  return err;
}

/**
 * Imports `docs` in order; rejects with the first refusal, naming the document as the stream
 * numbers it. Answers one outcome per namespace, in the order the documents first name them.
 */
export async function remoteImport(api: RemoteApi, docs: readonly FliptDocument[], flags: ImportFlags): Promise<ImportOutcome[]> {
  // Flipt's --drop empties everything first: later documents of a namespace add to its first.
  const seen = new Set<string>();
  const calls = docs.map((doc) => {
    const first = !seen.has(doc.namespace.key);
    seen.add(doc.namespace.key);
    return { doc, first, query: { drop: flags.drop && first, skipExisting: flags.skipExisting } };
  });
  const post = async (doc: FliptDocument, query: Record<string, boolean>): Promise<unknown> => {
    try {
      return await api.postJson(importPath(doc, query), encodeFliptDocument(doc));
    } catch (err) {
      throw explain(err, doc);
    }
  };
  for (const { doc, first, query } of calls) if (first) await post(doc, { ...query, dryRun: true });
  const outcomes = new Map<string, ImportOutcome>();
  for (const { doc, first } of calls) {
    if (first) outcomes.set(doc.namespace.key, { namespaceKey: doc.namespace.key, revision: 0, createdNamespace: !(await namespaceExists(api, doc.namespace.key)), flags: NO_CHANGES(), segments: NO_CHANGES() });
  }
  for (const { doc, query } of calls) {
    const outcome = outcomes.get(doc.namespace.key)!;
    const answer = answerOf(await post(doc, query));
    outcome.revision = answer.revision;
    outcome.flags = foldChanges(outcome.flags, answer.flags);
    outcome.segments = foldChanges(outcome.segments, answer.segments);
  }
  return [...outcomes.values()];
}
