/**
 * What an import did to each namespace, in the words `ensign import` prints: per flag and segment
 * key, created, updated (replaced with different content), unchanged, or deleted, as the import
 * route and its dry run answer them (`previewImport`), whether the import ran in the database or
 * through a running server.
 */
import type { KeyChanges } from '@ensign/control-plane';

/** How many keys of one kind an import created, updated, left unchanged and deleted. */
export interface KeyCounts {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/** One namespace's import. */
export interface ImportOutcome {
  namespaceKey: string;
  /** The namespace's revision after the import; 0 when the server did not say. */
  revision: number;
  createdNamespace: boolean;
  flags: KeyChanges;
  segments: KeyChanges;
}

export const NO_CHANGES = (): KeyChanges => ({ created: [], updated: [], deleted: [], unchanged: [] });

const STATUSES = ['created', 'updated', 'unchanged', 'deleted'] as const;

/**
 * `later` (what a later document of the same namespace did, imported after `earlier`) folded into
 * `earlier`: a key keeps the status its first document gave it (a flag created by the first
 * document and skipped by the second was created), except that a key the first document's drop
 * deleted and a later document wrote again was replaced, so updated.
 */
export function foldChanges(earlier: KeyChanges, later: KeyChanges): KeyChanges {
  const folded: KeyChanges = { created: [...earlier.created], updated: [...earlier.updated], deleted: [...earlier.deleted], unchanged: [...earlier.unchanged] };
  const seen = new Set(STATUSES.flatMap((status) => earlier[status]));
  const deleted = new Set(earlier.deleted);
  for (const status of STATUSES) {
    for (const key of later[status]) {
      if (deleted.has(key) && status === 'created') {
        deleted.delete(key);
        folded.deleted = folded.deleted.filter((k) => k !== key);
        folded.updated.push(key);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      folded[status].push(key);
    }
  }
  return folded;
}

const countsOf = (changes: KeyChanges): KeyCounts => ({
  created: changes.created.length,
  updated: changes.updated.length,
  unchanged: changes.unchanged.length,
  deleted: changes.deleted.length,
});

const line = (counts: KeyCounts): string => STATUSES.map((status) => `${counts[status]} ${status}`).join(', ');

/** `imported namespace "prod" (revision 4): flags 2 created, 1 updated, 0 unchanged, 3 deleted; segments 0 created, …`. */
export function describeOutcome(outcome: ImportOutcome): string {
  const created = outcome.createdNamespace ? 'created and ' : '';
  const revision = outcome.revision > 0 ? ` (revision ${outcome.revision})` : '';
  return `${created}imported namespace "${outcome.namespaceKey}"${revision}: flags ${line(countsOf(outcome.flags))}; segments ${line(countsOf(outcome.segments))}`;
}

/** A refusal because keys exist, with the two ways forward. */
export function explainRefusal(message: string): string {
  if (!/ already exists in namespace /.test(message)) return message;
  return `${message} (import again with --skip-existing to keep what the namespace has, or with --drop to replace its flags and segments with the input's)`;
}
