/**
 * The documents of a JSON export: one JSON value after another (Go's json.Decoder stream, which
 * `flipt export` writes one per line), after an optional `# exported by …` first line.
 * COMPAT(flipt): internal/ext/importer.go jsonReader skips a first line starting with `#`.
 */
import { invalid, type AppError } from '../errors.js';

const WHITESPACE = /\s/;

/** Where the string whose opening quote is at `start` ends (exclusive). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** Where the JSON value starting at `start` ends (exclusive); strings and nesting are followed. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    let end = start;
    while (end < text.length && !WHITESPACE.test(text[end] ?? '') && !'{["'.includes(text[end] ?? '')) end++;
    return Math.max(end, start + 1);
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}

const unreadable = (index: number, err: unknown): AppError =>
  invalid(`document ${index}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);

/** Every JSON value of the text, in order; a value that does not parse is a 400 naming its position. */
export function parseJsonDocuments(text: string): unknown[] {
  let body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.startsWith('#')) {
    const newline = body.indexOf('\n');
    body = newline < 0 ? '' : body.slice(newline + 1);
  }
  const values: unknown[] = [];
  let i = 0;
  while (i < body.length) {
    if (WHITESPACE.test(body[i] ?? '')) {
      i++;
      continue;
    }
    const end = valueEnd(body, i);
    try {
      values.push(JSON.parse(body.slice(i, end)));
    } catch (err) {
      throw unreadable(values.length + 1, err);
    }
    i = end;
  }
  return values;
}
