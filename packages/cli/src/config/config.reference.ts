/** The configuration reference, rendered from the schema for `--help` and for the README. */
import { envName, SETTINGS, type Setting } from './config.schema.js';

/** One row of the reference. */
export interface ReferenceRow {
  key: string;
  type: string;
  default: string;
  env: string;
  doc: string;
}

/** The reference rows, in schema order. */
export const configReference = (): ReferenceRow[] =>
  (SETTINGS as readonly Setting[]).map((s) => ({
    key: s.key,
    type: s.kind.type,
    default: s.kind.format(s.default),
    env: envName(s.key),
    doc: s.doc,
  }));

/** Plain-text reference for `ensign --help`: one line of facts per key, its meaning indented below. */
export function renderConfigText(indent = '  '): string {
  const rows = configReference();
  const width = (pick: (r: ReferenceRow) => string) => Math.max(...rows.map((r) => pick(r).length));
  const wKey = width((r) => r.key);
  const wType = width((r) => r.type);
  const wDefault = width((r) => r.default);
  return rows
    .map((r) =>
      [
        `${indent}${r.key.padEnd(wKey)}  ${r.type.padEnd(wType)}  default ${r.default.padEnd(wDefault)}  env ${r.env}`,
        `${indent}    ${r.doc}`,
      ].join('\n'),
    )
    .join('\n');
}

/** Markdown table for the README's configuration reference. */
export function renderConfigMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| Key | Default | Environment variable | Type | Meaning |',
    '|---|---|---|---|---|',
    ...configReference().map(
      (r) => `| \`${r.key}\` | \`${cell(r.default)}\` | \`${r.env}\` | ${cell(r.type)} | ${cell(r.doc)} |`,
    ),
  ].join('\n');
}
