/**
 * The one document an import's body holds, parsed from YAML or JSON. Either way what comes out is
 * a plain value for the codec to check; parse failures are 400s that say where the text is wrong.
 */
import { invalid, parseJsonDocuments } from '@ensign/core';
import { parseAllDocuments } from 'yaml';

export type DocumentFormat = 'yaml' | 'json';

/** JSON when the Content-Type says so (`application/json`, `…+json`), YAML otherwise, as when unsure. */
export function formatOfContentType(contentType: string | undefined): DocumentFormat {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json') ? 'json' : 'yaml';
}

const NO_DOCUMENT = 'the body must hold a Flipt document';

/** `reason at line 3, column 7` from the yaml library's message and position. */
function yamlReason(message: string, pos: { line: number; col: number } | undefined): string {
  const reason = (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  return pos === undefined ? reason : `${reason} at line ${pos.line}, column ${pos.col}`;
}

/** A stream with several namespaces is what `flipt export --all-namespaces` writes; this route imports one. */
function onlyOne(values: readonly unknown[]): unknown {
  const held = values.filter((value) => value !== null && value !== undefined);
  if (held.length > 1) throw invalid(`the body must hold one document, not ${held.length}: import each namespace on its own`);
  if (held.length === 0) throw invalid(NO_DOCUMENT);
  return held[0];
}

function parseYaml(text: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    const error = doc.errors[0];
    if (error !== undefined) throw invalid(`invalid YAML body: ${yamlReason(error.message, error.linePos?.[0])}`);
    try {
      return doc.toJS();
    } catch (err) {
      // Unresolved or too many aliases.
      throw invalid(`invalid YAML body: ${(err as Error).message}`);
    }
  });
}

/** The document `text` holds; empty text, several documents or a parse failure are 400s. */
export function parseDocumentText(text: string, format: DocumentFormat): unknown {
  // COMPAT(flipt): JSON is a stream of values, after an optional `# …` first line, as Flipt's CLI reads it.
  return onlyOne(format === 'json' ? parseJsonDocuments(text) : parseYaml(text));
}
