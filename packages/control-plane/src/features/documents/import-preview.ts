/**
 * What importing a document into a namespace changes, worked out from the namespace's current
 * state (its export) and the document, both decoded to the same form. COMPAT(flipt): the import
 * creates what the document holds; `skipExisting` leaves keys that are already there alone;
 * `drop` first deletes every flag and segment; without either, a key already there refuses the
 * import, so the preview refuses it too, in the store's words.
 */
import { type DocumentFlag, documentError, type DocumentLocation, type DocumentSegment, type FliptDocument } from '@ensign/core';

/** The keys an import creates, replaces with different content, deletes, or leaves as they are. */
export interface KeyChanges {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
}

export interface ImportPreview {
  namespace: string;
  flags: KeyChanges;
  segments: KeyChanges;
}

export interface ImportOptions {
  drop: boolean;
  skipExisting: boolean;
}

/** JSON with every object's keys sorted, so equal content compares equal whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Where the document was read, for errors that name the place in it. */
interface Source {
  namespace: string;
  at: DocumentLocation;
}

function keyChanges<T extends { key: string }>(noun: 'flag' | 'segment', source: Source, current: readonly T[], incoming: readonly T[], options: ImportOptions): KeyChanges {
  const before = new Map(current.map((item) => [item.key, item]));
  const changes: KeyChanges = { created: [], updated: [], deleted: [], unchanged: [] };
  incoming.forEach((item, i) => {
    const was = before.get(item.key);
    if (was === undefined) changes.created.push(item.key);
    else if (options.drop) (canonical(was) === canonical(item) ? changes.unchanged : changes.updated).push(item.key);
    else if (options.skipExisting) changes.unchanged.push(item.key);
    // The store's refusal of the same import, word for word.
    else throw documentError(source.at, `${noun}s[${i}].key`, `${noun} ${JSON.stringify(item.key)} already exists in namespace ${JSON.stringify(source.namespace)}`);
  });
  if (options.drop) {
    const kept = new Set(incoming.map((item) => item.key));
    changes.deleted = current.filter((item) => !kept.has(item.key)).map((item) => item.key);
  }
  return changes;
}

/** The preview of importing `doc` into `namespace`, which holds `current` (undefined: it does not exist yet). */
export function previewImport(namespace: string, current: FliptDocument | undefined, doc: FliptDocument, options: ImportOptions): ImportPreview {
  const flags: readonly DocumentFlag[] = current?.flags ?? [];
  const segments: readonly DocumentSegment[] = current?.segments ?? [];
  const source: Source = { namespace, at: doc.origin ?? { index: 1, namespaceKey: namespace } };
  // Segments first, as the store checks them: the first clash reported is the same.
  const segmentChanges = keyChanges('segment', source, segments, doc.segments, options);
  return { namespace, flags: keyChanges('flag', source, flags, doc.flags, options), segments: segmentChanges };
}
