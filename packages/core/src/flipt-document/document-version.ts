/**
 * The format's versions: which a document may declare, and which fields each one introduced.
 * COMPAT(flipt): internal/ext/importer.go (semver.ParseTolerant, then an exact match) and
 * core/validation/flipt.cue (flag metadata needs 1.3).
 */
import type { Place } from './document-fields.js';

/** A supported version as `[major, minor]`. */
export type DocumentVersion = readonly [1, 0 | 1 | 2 | 3 | 4];

/** The version export writes, and the one a stream that names none is read as. */
export const LATEST_DOCUMENT_VERSION: DocumentVersion = [1, 4];

const TOLERANT = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

export const versionText = (version: DocumentVersion): string => `${version[0]}.${version[1]}`;

/** `"1.2"`, `1.2`, `"v1.2"` and `"1.2.0"` all read as 1.2; versions other than 1.0–1.4 are refused. */
export function parseDocumentVersion(value: unknown, at: Place): DocumentVersion {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return at.fail('must be a string such as "1.4"');
  const match = TOLERANT.exec(text.trim());
  if (match === null) return at.fail(`cannot parse version ${JSON.stringify(text)}`);
  const [major, minor, patch] = [match[1], match[2], match[3]].map((part) => Number(part ?? 0));
  if (major !== 1 || patch !== 0 || minor === undefined || minor > 4) {
    return at.fail(`unsupported version ${JSON.stringify(text)} (supported: 1.0, 1.1, 1.2, 1.3, 1.4)`);
  }
  return [1, minor as DocumentVersion[1]];
}

/** Fails at `at` when `have` is older than the version that introduced the field. */
export function requireVersion(have: DocumentVersion, minor: DocumentVersion[1], at: Place): void {
  if (have[1] < minor) at.fail(`is supported in version >=1.${minor}, found ${versionText(have)}`);
}
