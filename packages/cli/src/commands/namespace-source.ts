/** Namespaces read whole as documents, from the database or a running server, for `export` and `import --from`. */
import { notFound, type FliptDocument } from '@ensign/core';
import type { RemoteApi } from './remote-api.js';
import { remoteExportNamespace, remoteNamespaceKeys } from './remote-export.js';

/** Where the namespaces are read from. */
export interface NamespaceSource {
  namespaceKeys(): Promise<string[]>;
  exportNamespace(key: string): Promise<FliptDocument | undefined>;
  close(): Promise<void>;
}

export function remoteSource(api: RemoteApi): NamespaceSource {
  return { namespaceKeys: () => remoteNamespaceKeys(api), exportNamespace: (key) => remoteExportNamespace(api, key), close: async () => undefined };
}

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The namespaces asked for (`all`: every one, by key with `sortByKey`); a namespace the source does not hold is a 404. */
export async function readDocuments(source: NamespaceSource, namespaces: string[] | 'all', sortByKey = false): Promise<FliptDocument[]> {
  const all = namespaces === 'all';
  const keys = all ? await source.namespaceKeys() : namespaces;
  // COMPAT(flipt): only --all-namespaces is sorted; listed namespaces keep the order given.
  const ordered = all && sortByKey ? [...keys].sort(byKey) : keys;
  const docs: FliptDocument[] = [];
  for (const key of ordered) {
    const doc = await source.exportNamespace(key);
    if (doc === undefined) throw notFound(`namespace "${key}" not found`);
    docs.push(doc);
  }
  return docs;
}
