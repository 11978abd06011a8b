/**
 * Flipt documents as text: YAML (documents separated by `---`) or JSON (one value per line), as
 * `flipt export` writes and `flipt import` reads them. COMPAT(flipt): internal/ext/encoding.go.
 */
import { extname } from 'node:path';
import { encodeFliptDocument, invalid, parseJsonDocuments, type FliptDocument } from '@ensign/core';
import { parseAllDocuments, stringify } from 'yaml';

export type DocumentFormat = 'yaml' | 'json';

/** JSON for a `.json` file, YAML for anything else (and for stdin/stdout). */
export const formatOf = (path: string | undefined): DocumentFormat =>
  path !== undefined && extname(path).toLowerCase() === '.json' ? 'json' : 'yaml';

/**
 * The documents as text: Flipt's exporter writes `version` on the first only, YAML as yaml.v2 does
 * (lists not indented under their key, long text not folded), JSON one compact value per line.
 */
export function renderDocuments(docs: readonly FliptDocument[], format: DocumentFormat, sortByKey: boolean): string {
  const values = docs.map((doc, i) => encodeFliptDocument(doc, { sortByKey, withVersion: i === 0 }));
  if (format === 'json') return values.map((value) => `${JSON.stringify(value)}\n`).join('');
  return values.map((value) => stringify(value, { indentSeq: false, lineWidth: 0 })).join('---\n');
}

/** The first line of an export written to a YAML file, as Flipt's; both readers skip it (JSON has no comments, so a JSON file goes without). */
export const exportHeader = (version: string, now: Date): string =>
  `# exported by Ensign (${version}) on ${now.toISOString().replace(/\.\d+Z$/, 'Z')}\n\n`;

/** `… at line 3, column 7`, from the yaml library's error. */
function yamlProblem(error: { message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): string {
  const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const at = error.linePos?.[0];
  return at === undefined ? reason : `${reason} at line ${at.line}, column ${at.col}`;
}

/** The parsed documents of the text, one value each (`null` for an empty one); unreadable text is a 400. */
export function parseDocuments(text: string, format: DocumentFormat): unknown[] {
  if (format === 'json') return parseJsonDocuments(text);
  // Merge keys (`<<: *base`) as Go's yaml.v3 reads them.
  return parseAllDocuments(text, { merge: true }).map((doc, i) => {
    const error = doc.errors[0];
    if (error !== undefined) throw invalid(`document ${i + 1}: not valid YAML: ${yamlProblem(error)}`);
    try {
      return doc.toJS({ maxAliasCount: 1000 }) as unknown;
    } catch (err) {
      throw invalid(`document ${i + 1}: not valid YAML: ${(err as Error).message}`);
    }
  });
}
