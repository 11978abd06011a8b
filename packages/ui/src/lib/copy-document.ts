/**
 * "Copy to namespace": the one-flag (or one-segment) Flipt document the UI imports into another
 * namespace, built from what the page already read, and what the import's answers mean. The
 * import route writes one namespace in one transaction, so a copy lands whole or not at all; it is
 * sent without `skipExisting` or `drop`, so it only ever creates (a key already there refuses it).
 * A flag is copied with its variants and default variant, not its rules, rollouts or prerequisites:
 * those name segments and flags the other namespace may not have.
 */
import { documentOfResources, encodeFliptDocument, type Flag, type Namespace, type Segment } from '@ensign/core';
import type { ImportSummary, KeyChanges } from './document-import.js';
import type { UserMessage } from './user-messages.js';

export type CopyKind = 'flag' | 'segment';

/** What is copied: a flag (with its variants) or a segment (with its constraints). */
export type CopySource = { kind: 'flag'; flag: Flag } | { kind: 'segment'; segment: Segment };

export const keyOf = (source: CopySource): string => (source.kind === 'flag' ? source.flag.key : source.segment.key);

/**
 * The document (as JSON text) that creates `source` in whichever namespace it is imported into: it
 * names no namespace, holds the one flag without rules or rollouts, or the one segment.
 */
export function copyDocument(source: CopySource): string {
  const doc = documentOfResources({
    // Dropped below: the route fills in the namespace imported into.
    namespace: { key: source.kind === 'flag' ? source.flag.namespaceKey : source.segment.namespaceKey, name: '', description: '' },
    flags: source.kind === 'flag' ? [withoutPrerequisites(source.flag)] : [],
    rules: [],
    rollouts: [],
    segments: source.kind === 'segment' ? [source.segment] : [],
  });
  const { namespace: _, ...encoded } = encodeFliptDocument(doc);
  return `${JSON.stringify(encoded, null, 2)}\n`;
}

function withoutPrerequisites(flag: Flag): Flag {
  const { prerequisites: _, ...rest } = flag;
  return rest;
}

/** The namespaces a copy can go to: every one listed but the source, in the list's order. */
export const copyTargets = (namespaces: readonly Namespace[], source: string): Namespace[] => namespaces.filter((ns) => ns.key !== source);


const EMPTY: KeyChanges = { created: [], updated: [], deleted: [], unchanged: [] };
const changed = (changes: KeyChanges | undefined): string[] => {
  const c = changes ?? EMPTY;
  return [...c.created, ...c.updated, ...c.deleted, ...c.unchanged];
};

/**
 * Whether an import's preview does exactly the copy: `key` created as a `kind`, and nothing else
 * created, updated, deleted or even mentioned. Anything else is not written.
 */
export function previewIsCopyOnly(summary: ImportSummary, kind: CopyKind, key: string): boolean {
  const own = kind === 'flag' ? summary.flags : summary.segments;
  const other = kind === 'flag' ? summary.segments : summary.flags;
  return own.created.length === 1 && own.created[0] === key && changed(own).length === 1 && changed(other).length === 0;
}

/** Whether the service's refusal of the import is that `key` is already a `kind` there (someone created it since the check). */
export function refusedAsExisting(serviceMessage: string, kind: CopyKind, key: string): boolean {
  return serviceMessage.includes(`${kind} ${JSON.stringify(key)} already exists in namespace `);
}

/** The refusal of a copy whose key is taken in the target, with a link to what holds it. */
export function existsMessage(kind: CopyKind, key: string, target: Pick<Namespace, 'key' | 'name'>): UserMessage {
  return [
    `The namespace “${target.name || target.key}” already has a ${kind} with the key “${key}”, so nothing was copied. `,
    { text: `Open the existing ${kind}`, to: { kind, ns: target.key, key } },
    ', or choose another namespace.',
  ];
}

/** What a finished copy says, before its link. */
export const copiedText = (kind: CopyKind, key: string, target: Pick<Namespace, 'key' | 'name'>): string =>
  `${kind === 'flag' ? 'Flag' : 'Segment'} “${key}” was copied to the namespace “${target.name || target.key}”.`;

/** The sentence a preview that does more than the copy is refused with (the service did not write it). */
export const UNEXPECTED_PREVIEW = 'The service would have changed more than the copy, so nothing was copied. Reload the page and try again.';
