/**
 * Reads one feature file into the values it holds, as Flipt does: `.yml`/`.yaml` as a stream of
 * YAML documents (`---` between them), `.json` or no extension as a stream of JSON values; any
 * other extension is refused.
 */
import { isAppError, parseJsonDocuments } from '@ensign/core';
import { parseAllDocuments } from 'yaml';
import { fileError } from './declarative-error.js';

const extensionOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
};

function yamlValues(path: string, text: string): unknown[] {
  const values: unknown[] = [];
  for (const [n, doc] of parseAllDocuments(text).entries()) {
    const error = doc.errors[0];
    if (error !== undefined) {
      const pos = error.linePos?.[0];
      const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw fileError(`invalid YAML: ${reason}`, { file: path, path: pos === undefined ? `document ${n + 1}` : `line ${pos.line}, column ${pos.col}` });
    }
    // An empty document (`---` with nothing after it) stays as null: the decoder skips it, and the
    // documents after it keep their numbers in errors.
    values.push(doc.toJS());
  }
  return values;
}

/** The values (documents) of one file; throws DeclarativeError naming the file and line. */
export function readFeatureFile(path: string, content: Buffer): unknown[] {
  const extension = extensionOf(path);
  const text = content.toString('utf8');
  switch (extension) {
    case '.yml':
    case '.yaml':
      return yamlValues(path, text);
    case '':
    case '.json':
      try {
        return parseJsonDocuments(text);
      } catch (err) {
        throw isAppError(err) ? fileError(err.message, { file: path }) : err;
      }
    default:
      throw fileError(`unexpected extension: ${JSON.stringify(extension)}`, { file: path });
  }
}
