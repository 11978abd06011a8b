/**
 * What an import writes into one namespace, decided from the documents and the keys the namespace
 * holds, before anything is written: conflicts (Flipt's importer fails on a key that exists),
 * keys to skip, and every segment a written rule or rollout names. Pure, so the same plan is
 * checked before any namespace is written and again inside each namespace's transaction.
 */
import { documentError, segmentReferences, type DocumentFlag, type DocumentLocation, type DocumentNamespace, type DocumentSegment, type FliptDocument } from '@ensign/core';
import type { ImportCounts, ImportOptions } from './import-summary.js';

/** The documents of one namespace, in input order. */
export interface NamespaceGroup {
  key: string;
  /** As its first document gives it; used when the import creates the namespace. */
  namespace: DocumentNamespace;
  docs: Array<{ doc: FliptDocument; at: DocumentLocation }>;
}

/** The flag and segment keys a namespace holds, each with its row's creation time. */
export interface ExistingKeys {
  flags: ReadonlyMap<string, string>;
  segments: ReadonlyMap<string, string>;
}

export interface NamespacePlan {
  key: string;
  namespace: DocumentNamespace;
  /** To write, in input order. */
  flags: DocumentFlag[];
  /** To write, in input order. */
  segments: DocumentSegment[];
  flagCounts: ImportCounts;
  segmentCounts: ImportCounts;
  /** Every flag whose evaluation changes: those written and, with `drop`, every one that was there. */
  touchedFlags: string[];
  /** With `drop`: the segments that were there, all deleted before writing. */
  droppedSegments: string[];
  /**
   * The creation time each written flag and segment keeps, by key: its row's when the namespace
   * had the key (`drop` replaces it), else the one its document carries. Keys without one are
   * stamped with the write.
   */
  createdAt: { flags: Map<string, string>; segments: Map<string, string> };
}

/** Documents by namespace, in the order the namespaces first appear; Flipt imports a stream's documents of one namespace into it one after another. */
export function groupByNamespace(docs: readonly FliptDocument[]): NamespaceGroup[] {
  const groups = new Map<string, NamespaceGroup>();
  docs.forEach((doc, i) => {
    const at: DocumentLocation = doc.origin ?? { index: i + 1, namespaceKey: doc.namespace.key };
    const group = groups.get(doc.namespace.key);
    if (group === undefined) groups.set(doc.namespace.key, { key: doc.namespace.key, namespace: doc.namespace, docs: [{ doc, at }] });
    else group.docs.push({ doc, at });
  });
  return [...groups.values()];
}

/** Where a key was first taken in this import. */
type Taken = Map<string, DocumentLocation>;

/** Whether an item of this key is written, skipped, or is a conflict; a conflict throws. */
function admit(
  noun: 'flag' | 'segment',
  key: string,
  path: string,
  at: DocumentLocation,
  taken: Taken,
  existing: ReadonlyMap<string, string>,
  options: ImportOptions,
  namespaceKey: string,
): boolean {
  const earlier = taken.get(key);
  if (earlier !== undefined) {
    if (options.skipExisting) return false;
    const where = earlier.index === at.index ? 'appears twice' : `is also in document ${earlier.index}`;
    throw documentError(at, path, `${noun} ${JSON.stringify(key)} ${where}`);
  }
  if (!options.drop && existing.has(key)) {
    if (options.skipExisting) return false;
    throw documentError(at, path, `${noun} ${JSON.stringify(key)} already exists in namespace ${JSON.stringify(namespaceKey)}`);
  }
  taken.set(key, at);
  return true;
}

const counts = (imported: number, skipped: number, removed: number): ImportCounts => ({ imported, skipped, removed });

export function planNamespace(group: NamespaceGroup, existing: ExistingKeys, options: ImportOptions): NamespacePlan {
  const flagsTaken: Taken = new Map();
  const segmentsTaken: Taken = new Map();
  const flags: DocumentFlag[] = [];
  const segments: DocumentSegment[] = [];
  const createdAt = { flags: new Map<string, string>(), segments: new Map<string, string>() };
  // A key the namespace had keeps its row's time; a new one, the time its document carries.
  const keep = (times: Map<string, string>, key: string, had: string | undefined, carried: string | undefined): void => {
    const time = had ?? carried;
    if (time !== undefined) times.set(key, time);
  };
  let skippedFlags = 0;
  let skippedSegments = 0;

  for (const { doc, at } of group.docs) {
    doc.segments.forEach((segment, i) => {
      if (admit('segment', segment.key, `segments[${i}].key`, at, segmentsTaken, existing.segments, options, group.key)) {
        segments.push(segment);
        keep(createdAt.segments, segment.key, existing.segments.get(segment.key), doc.createdAt?.segments.get(segment.key));
      } else skippedSegments++;
    });
    doc.flags.forEach((flag, i) => {
      if (admit('flag', flag.key, `flags[${i}].key`, at, flagsTaken, existing.flags, options, group.key)) {
        flags.push(flag);
        keep(createdAt.flags, flag.key, existing.flags.get(flag.key), doc.createdAt?.flags.get(flag.key));
      } else skippedFlags++;
    });
  }

  // A written flag's segments are the import's own, or (unless dropped) the namespace's.
  const written = new Set(flags);
  const available = (key: string) => segmentsTaken.has(key) || (!options.drop && existing.segments.has(key));
  for (const { doc, at } of group.docs) {
    const writtenFlagKeys = new Set(doc.flags.filter((f) => written.has(f)).map((f) => f.key));
    for (const ref of segmentReferences(doc)) {
      if (writtenFlagKeys.has(ref.flagKey) && !available(ref.segmentKey)) {
        const where = options.drop ? ' (the import drops what the namespace had)' : '';
        throw documentError(at, ref.path, `no segment ${JSON.stringify(ref.segmentKey)} in namespace ${JSON.stringify(group.key)}${where}`);
      }
    }
  }

  const dropped = options.drop ? [...existing.flags.keys()] : [];
  const droppedSegments = options.drop ? [...existing.segments.keys()] : [];
  return {
    key: group.key,
    namespace: group.namespace,
    flags,
    segments,
    flagCounts: counts(flags.length, skippedFlags, dropped.filter((k) => !flagsTaken.has(k)).length),
    segmentCounts: counts(segments.length, skippedSegments, droppedSegments.filter((k) => !segmentsTaken.has(k)).length),
    touchedFlags: [...new Set([...dropped, ...flags.map((f) => f.key)])],
    droppedSegments,
    createdAt,
  };
}
