/**
 * The namespaces a set of state files declares, as Flipt builds its snapshot: each file decoded
 * and checked on its own, the documents of one namespace merged across files (a later file's flag
 * or segment replaces an earlier one with the same key; the namespace's name comes from the first
 * document naming it), then every rule and rollout checked to name a segment the merged namespace
 * has and every prerequisite to name a flag (with those variants) of it, closing no cycle. The
 * `default` namespace is always declared, empty when no file gives it anything.
 */
import {
  DEFAULT_NAMESPACE,
  decodeFliptDocuments,
  documentError,
  type DocumentSegment,
  type FliptDocument,
  isAppError,
  type PlacedFlag,
  prerequisiteProblem,
  segmentReferences,
} from '@ensign/core';
import { DeclarativeError } from './declarative-error.js';
import { readFeatureFile } from './feature-file.js';
import type { StateFile } from './state-files.js';

/** A namespace's document as merged from every file, with the documents it came from. */
interface MergedNamespace {
  namespace: FliptDocument['namespace'];
  /** Each flag with the document and place it was last given in. */
  flags: Map<string, PlacedFlag>;
  segments: Map<string, DocumentSegment>;
  sources: FliptDocument[];
}

const asDeclarative = (err: unknown, file: string): unknown =>
  isAppError(err) ? new DeclarativeError(err.message, { file, ...(err.field === undefined ? {} : { path: err.field }) }) : err;

function decodeFile(file: StateFile): FliptDocument[] {
  const values = readFeatureFile(file.path, file.content);
  try {
    return decodeFliptDocuments(values, { source: file.path });
  } catch (err) {
    throw asDeclarative(err, file.path);
  }
}

/**
 * Throws for the first rule or rollout (of any document) naming a segment its merged namespace
 * lacks, naming the file, the document and the path as the decoder's own errors do.
 */
function checkSegmentReferences(merged: MergedNamespace): void {
  for (const doc of merged.sources) {
    for (const ref of segmentReferences(doc)) {
      if (merged.segments.has(ref.segmentKey)) continue;
      const origin = doc.origin ?? { index: 1 };
      const err = documentError(origin, ref.path, `no segment ${JSON.stringify(ref.segmentKey)} in namespace ${JSON.stringify(merged.namespace.key)}`);
      throw asDeclarative(err, origin.source ?? '');
    }
  }
}

/** Throws for the first prerequisite the merged namespace cannot meet (a missing flag or variant, a cycle), naming its file. */
function checkPrerequisites(merged: MergedNamespace): void {
  const problem = prerequisiteProblem([...merged.flags.values()], { namespaceKey: merged.namespace.key, outside: () => undefined });
  if (problem !== undefined) throw asDeclarative(documentError(problem.at, problem.path, problem.reason), problem.at.source ?? '');
}

/** Every namespace the files declare, `default` first, the others in the order files first name them. */
export function namespaceDocuments(files: readonly StateFile[]): Map<string, FliptDocument> {
  const merged = new Map<string, MergedNamespace>();
  merged.set(DEFAULT_NAMESPACE, { namespace: { key: DEFAULT_NAMESPACE, name: 'Default', description: '' }, flags: new Map(), segments: new Map(), sources: [] });
  for (const file of files) {
    for (const doc of decodeFile(file)) {
      let ns = merged.get(doc.namespace.key);
      if (ns === undefined) {
        ns = { namespace: doc.namespace, flags: new Map(), segments: new Map(), sources: [] };
        merged.set(doc.namespace.key, ns);
      }
      for (const segment of doc.segments) ns.segments.set(segment.key, segment);
      doc.flags.forEach((flag, i) => ns.flags.set(flag.key, { flag, at: doc.origin ?? { index: 1 }, path: `flags[${i}]` }));
      ns.sources.push(doc);
    }
  }
  const out = new Map<string, FliptDocument>();
  for (const [key, ns] of merged) {
    checkSegmentReferences(ns);
    checkPrerequisites(ns);
    out.set(key, { namespace: ns.namespace, flags: [...ns.flags.values()].map((p) => p.flag), segments: [...ns.segments.values()] });
  }
  return out;
}
