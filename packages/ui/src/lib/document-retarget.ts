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

/** The namespace key `value` (a parsed document) names: `namespace: key` or `namespace: {key: …}`; undefined for none. */
function namedKey(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const sent = (value as Record<string, unknown>)['namespace'];
  if (typeof sent === 'string') return sent;
  if (sent !== null && typeof sent === 'object' && !Array.isArray(sent)) {
    const key = (sent as Record<string, unknown>)['key'];
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/**
 * The namespace the document names, when it is another than `namespaceKey` (the service would
 * refuse it): found in the browser, before anything is sent. Undefined when it names none or
 * that one, and for text that does not parse (the service explains that).
 */
export async function otherNamespaceOf(text: string, format: DocumentFormat, namespaceKey: string): Promise<string | undefined> {
  let values: unknown[];
  if (format === 'json') {
    try {
      values = [JSON.parse(splitComment(text)[1])];
    } catch {
      return undefined;
    }
  } else {
    const { parseAllDocuments } = await import('yaml');
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs) || docs.some((doc) => doc.errors.length > 0)) return undefined;
    values = docs.map((doc) => doc.toJS() as unknown);
  }
  return values.map(namedKey).find((key) => key !== undefined && key !== namespaceKey);
}

/** What the dialog says of a document made for another namespace. */
export const otherNamespaceMessage = (named: string, namespaceKey: string): string =>
  `This document is an export of the namespace “${named}”, and you are importing into “${namespaceKey}”. To import it here, remove its namespace with the button below; or import it into “${named}” instead.`;
