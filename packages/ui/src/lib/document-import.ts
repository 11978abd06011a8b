/**
 * Importing a Flipt document into a namespace: the choices the dialog offers, the request they
 * make, and the preview the service answers, in words.
 */
import { countNoun } from './count-noun.js';

/** How an import treats the flags and segments a namespace already holds. */
export type ImportMode = 'add' | 'skip-existing' | 'replace';

export const IMPORT_MODES: ReadonlyArray<readonly [mode: ImportMode, label: string, about: string]> = [
  ['add', 'Add', 'Creates what the document holds; a flag or segment whose key is already there stops the import.'],
  ['skip-existing', 'Skip existing', 'Creates what the document holds and leaves flags and segments whose keys are already there as they are.'],
  ['replace', 'Replace everything', 'Deletes every flag and segment of the namespace, then creates the document’s.'],
];

/** The import route's query for `mode`; `dryRun` asks for the preview only. */
export function importQuery(mode: ImportMode, dryRun: boolean): string {
  return `drop=${mode === 'replace'}&skipExisting=${mode === 'skip-existing'}&dryRun=${dryRun}`;
}

export type DocumentFormat = 'yaml' | 'json';

export const CONTENT_TYPES: Readonly<Record<DocumentFormat, string>> = { yaml: 'application/yaml', json: 'application/json' };

/** A `.json` file is JSON, any other file YAML (as Flipt's CLI reads them); pasted text is JSON when it starts like it. */
export function documentFormat(text: string, fileName?: string): DocumentFormat {
  if (fileName !== undefined) return /\.json$/i.test(fileName) ? 'json' : 'yaml';
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

/** The name an exported namespace is saved under. */
export const exportFileName = (namespaceKey: string): string => `${namespaceKey}.yaml`;

/** The keys an import creates, changes, deletes or leaves as they are. */
export interface KeyChanges {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
}

/** What the import route answers: the preview, and after a real import the revision it made. */
export interface ImportSummary {
  namespace: string;
  flags: KeyChanges;
  segments: KeyChanges;
  revision?: number;
}

type Change = keyof KeyChanges;
const CHANGES: readonly Change[] = ['created', 'updated', 'deleted', 'unchanged'];
const UNCHANGED_LABEL: Readonly<Record<'flags' | 'segments', string>> = { flags: 'Flags left as they are', segments: 'Segments left as they are' };

/** One list of the preview: "Flags created" and their keys. */
export interface PreviewSection {
  id: string;
  label: string;
  change: Change;
  keys: readonly string[];
}

/** The preview's non-empty lists: flags first, then segments, each created, updated, deleted, unchanged. */
export function previewSections(summary: ImportSummary): PreviewSection[] {
  const sections: PreviewSection[] = [];
  for (const what of ['flags', 'segments'] as const) {
    const noun = what === 'flags' ? 'Flags' : 'Segments';
    for (const change of CHANGES) {
      const keys = summary[what][change];
      if (keys.length === 0) continue;
      const label = change === 'unchanged' ? UNCHANGED_LABEL[what] : `${noun} ${change}`;
      sections.push({ id: `${what}-${change}`, label, change, keys });
    }
  }
  return sections;
}


/** One sentence for the preview or the result: "2 flags created, 1 deleted; 1 segment created". */
export function previewHeadline(summary: ImportSummary): string {
  const parts: string[] = [];
  for (const [what, noun] of [['flags', 'flag'], ['segments', 'segment']] as const) {
    const changed = (['created', 'updated', 'deleted'] as const).filter((change) => summary[what][change].length > 0);
    if (changed.length === 0) continue;
    const [first, ...rest] = changed.map((change) => [summary[what][change].length, change] as const);
    parts.push([`${countNoun(first![0], noun)} ${first![1]}`, ...rest.map(([n, change]) => `${n} ${change}`)].join(', '));
  }
  return parts.length === 0 ? 'No changes' : parts.join('; ');
}
