/**
 * `flipt import`'s input, decoded and checked whole before anything is written: every document of
 * the stream, versions 1.0–1.4 with their version gates, Flipt's key patterns, enum spellings and
 * operators, variants and segments that references name, and Ensign's extension (prerequisites,
 * schedules, windows, ramps; decode-timing.ts). COMPAT(flipt): internal/ext/importer.go.
 */
import { DEFAULT_NAMESPACE } from '../resources.js';
import { decodeFlag, refuseDuplicates } from './decode-flag.js';
import { checkKey } from './decode-names.js';
import { decodeSegment } from './decode-segment.js';
import { documentError, type DocumentLocation } from './document-error.js';
import { eachObject, has, isObject, readAny, readList, readText, Place, type DocumentObject } from './document-fields.js';
import type { DocumentNamespace, FliptDocument } from './document-types.js';
import { LATEST_DOCUMENT_VERSION, parseDocumentVersion, type DocumentVersion } from './document-version.js';
import { checkPrerequisiteReferences, placedFlags, type PrerequisiteParent } from './prerequisite-references.js';
import { segmentReferences } from './segment-references.js';

export interface DecodeDocumentsOptions {
  /** Names the input in errors (a file name). */
  source?: string;
  /**
   * Whether a segment the document does not define exists in its namespace. Without it, such
   * references are left for the import to check against the namespace it writes to.
   */
  segmentExists?: (namespaceKey: string, segmentKey: string) => boolean;
  /**
   * A flag the document does not define, as its namespace holds it (for prerequisites naming it);
   * undefined when there is none. Without it, such prerequisites are left for the import to check.
   */
  existingFlag?: (namespaceKey: string, flagKey: string) => PrerequisiteParent | undefined;
}

/** `namespace: key`, `namespace: {key, name, description}`, or none (`default`). */
function decodeNamespace(obj: DocumentObject, at: Place): DocumentNamespace {
  const value = readAny(obj, 'namespace');
  const namespaceAt = at.field('namespace');
  if (value === undefined) return { key: DEFAULT_NAMESPACE, name: 'Default', description: '' };
  if (typeof value === 'string') return { key: checkKey(value, namespaceAt), name: value, description: '' };
  if (!isObject(value)) return namespaceAt.fail('must be a namespace key or {key, name, description}');
  const key = has(value, 'key') ? checkKey(readText(value, 'key', namespaceAt), namespaceAt.field('key')) : DEFAULT_NAMESPACE;
  const name = readText(value, 'name', namespaceAt);
  return { key, name: name === '' ? key : name, description: readText(value, 'description', namespaceAt) };
}

function decodeOne(value: DocumentObject, location: DocumentLocation, version: DocumentVersion, options: DecodeDocumentsOptions): FliptDocument {
  const namespace = decodeNamespace(value, new Place(location, ''));
  const origin = { ...location, namespaceKey: namespace.key };
  const at = new Place(origin, '');

  const segmentsAt = at.field('segments');
  const segments = eachObject(readList(value, 'segments', at), segmentsAt).map((s) => decodeSegment(s.obj, s.at));
  refuseDuplicates(segments.map((s) => s.key), segmentsAt, 'segment');

  const flagsAt = at.field('flags');
  const flags = eachObject(readList(value, 'flags', at), flagsAt).map((f) => decodeFlag(f.obj, f.at, version));
  refuseDuplicates(flags.map((f) => f.key), flagsAt, 'flag');

  const doc: FliptDocument = { namespace, flags, segments, origin };
  const existingFlag = options.existingFlag;
  checkPrerequisiteReferences(placedFlags(flags, origin), {
    namespaceKey: namespace.key,
    ...(existingFlag === undefined ? {} : { outside: (flagKey: string) => existingFlag(namespace.key, flagKey) }),
  });
  const lookup = options.segmentExists;
  if (lookup !== undefined) {
    const defined = new Set(segments.map((s) => s.key));
    for (const ref of segmentReferences(doc)) {
      if (!defined.has(ref.segmentKey) && !lookup(namespace.key, ref.segmentKey)) {
        throw documentError(origin, ref.path, `no segment ${JSON.stringify(ref.segmentKey)} in namespace ${JSON.stringify(namespace.key)}`);
      }
    }
  }
  return doc;
}

/**
 * Decodes parsed documents (one value per YAML document or JSON value; the callers parse the
 * text). An empty document (`null`: a comment-only file, a trailing `---`) holds nothing and is
 * skipped. A document without `version` is read at the first document's version, or 1.4 when
 * that names none either. Throws the first problem as a 400 naming the document and the path.
 */
export function decodeFliptDocuments(values: readonly unknown[], options: DecodeDocumentsOptions = {}): FliptDocument[] {
  const docs: FliptDocument[] = [];
  let streamVersion: DocumentVersion | undefined;
  values.forEach((value, i) => {
    if (value === null || value === undefined) return;
    const location: DocumentLocation = { index: i + 1, ...(options.source === undefined ? {} : { source: options.source }) };
    const at = new Place(location, '');
    if (!isObject(value)) throw documentError(location, '(document)', 'must be a mapping with version, namespace, flags and segments');
    const version = has(value, 'version') ? parseDocumentVersion(readAny(value, 'version'), at.field('version')) : (streamVersion ?? LATEST_DOCUMENT_VERSION);
    streamVersion ??= version;
    docs.push(decodeOne(value, location, version, options));
  });
  return docs;
}
