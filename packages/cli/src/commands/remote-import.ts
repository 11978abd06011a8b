/**
 * An import through a running Ensign: each document posted to `POST /api/v1/namespaces/{ns}/import`
 * (one change per document there). Every namespace's first document is tried first with
 * `dryRun=true`, so a conflict or a missing segment anywhere is found before anything is written.
 */
import { encodeFliptDocument, type FliptDocument } from '@ensign/core';
import type { ImportCounts, NamespaceImport } from '@ensign/store';
import { RemoteError, type RemoteApi } from './remote-api.js';

export interface ImportFlags {
  drop: boolean;
  skipExisting: boolean;
}

const NONE: ImportCounts = { imported: 0, skipped: 0, removed: 0 };

const importPath = (doc: FliptDocument, query: Record<string, boolean>): string =>
  `/api/v1/namespaces/${encodeURIComponent(doc.namespace.key)}/import?${new URLSearchParams(Object.entries(query).map(([name, on]): [string, string] => [name, String(on)]))}`;

/** The route's answer as the summary the database import gives; counts it does not name stay 0. */
function summaryOf(answer: unknown, namespaceKey: string): NamespaceImport {
  const imported = (answer as { imported?: { namespaces?: NamespaceImport[] } } | undefined)?.imported?.namespaces?.[0];
  return imported ?? { namespaceKey, revision: 0, createdNamespace: false, flags: NONE, segments: NONE };
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

/** Imports `docs` in order; rejects with the first refusal, naming the document as the stream numbers it. */
export async function remoteImport(api: RemoteApi, docs: readonly FliptDocument[], flags: ImportFlags): Promise<NamespaceImport[]> {
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
  const results: NamespaceImport[] = [];
  for (const { doc, query } of calls) results.push(summaryOf(await post(doc, query), doc.namespace.key));
  return results;
}
