/**
 * A document without its `namespace`, so that it imports into whichever namespace it is sent to.
 * The service refuses a document that names another namespace than the one imported into (an
 * export of `staging` is not put into `production` by mistake); this is the deliberate way round.
 * YAML keeps its comments and layout; the YAML parser is loaded only when it is needed.
 */
import type { DocumentFormat } from './document-import.js';

/** The `# …` first line Flipt's CLI allows before a JSON document, and the rest. */
function splitComment(text: string): [comment: string, body: string] {
  if (!text.startsWith('#')) return ['', text];
  const newline = text.indexOf('\n');
  return newline === -1 ? [text, ''] : [text.slice(0, newline + 1), text.slice(newline + 1)];
}

/** `text` without its top-level `namespace`; text that does not parse is returned as it is, for the service to explain. */
export async function withoutNamespace(text: string, format: DocumentFormat): Promise<string> {
  if (format === 'json') {
    const [comment, body] = splitComment(text);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return text;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return text;
    const { namespace: _, ...rest } = value as Record<string, unknown>;
    return `${comment}${JSON.stringify(rest, null, 2)}\n`;
  }
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  doc.delete('namespace');
  return doc.toString();
}
