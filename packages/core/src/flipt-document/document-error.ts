/**
 * Where in an import a problem is, and the error that says so:
 * `document 2 (namespace "production"): flags[3].rules[0].distributions[1].variant: no variant "blu" in flag "color"`.
 */
import { AppError, Code } from '../errors.js';

/** One document of an import: its position (from 1), the file it came from, its namespace once known. */
export interface DocumentLocation {
  /** Position in the input, from 1. */
  index: number;
  /** A file name or other label of the input, when there is one. */
  source?: string;
  namespaceKey?: string;
}

/** `features.yml: document 2 (namespace "production")`. */
export function describeDocument(at: DocumentLocation): string {
  const namespace = at.namespaceKey === undefined ? '' : ` (namespace ${JSON.stringify(at.namespaceKey)})`;
  return `${at.source === undefined ? '' : `${at.source}: `}document ${at.index}${namespace}`;
}

/** A 400 naming the document and the path of the field in it; `field` is the path. */
export function documentError(at: DocumentLocation, path: string, reason: string): AppError {
  return new AppError(Code.InvalidArgument, `${describeDocument(at)}: ${path}: ${reason}`, { field: path });
}
