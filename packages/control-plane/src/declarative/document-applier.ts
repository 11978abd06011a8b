/**
 * Writes the namespaces the files declare into the database: each namespace whose decoded content
 * differs from what was last applied is replaced whole (imported with drop: per namespace one
 * transaction and one change, published like any write), a renamed namespace is updated, and a
 * namespace no file declares any more is deleted (`default` is emptied instead: it always exists).
 * Nothing is written unless every file is valid.
 */
import { Code, DEFAULT_NAMESPACE, type FliptDocument, isAppError, type Namespace } from '@ensign/core';
import { DeclarativeError } from './declarative-error.js';
import type { DocumentRepository } from '../features/documents/document.repository.js';
import type { NamespaceRepository } from '../features/namespaces/namespace.repository.js';
import type { ApplyResult, FeatureApplier } from './declarative-storage.js';
import { namespaceDocuments } from './namespace-documents.js';
import type { StateFile } from './state-files.js';

export interface DocumentApplierDeps {
  documents: Pick<DocumentRepository, 'importDocuments'>;
  namespaces: Pick<NamespaceRepository, 'list' | 'update' | 'delete'>;
}

const PAGE = 1000;

/** What is compared to tell a changed namespace: its content as decoded, without where it was read. */
const contentOf = (doc: FliptDocument): string => JSON.stringify({ namespace: doc.namespace, flags: doc.flags, segments: doc.segments });

export class DocumentApplier implements FeatureApplier {
  /** Per namespace, the content last written. Empty at start, so the first sync rewrites every namespace. */
  private readonly applied = new Map<string, string>();

  constructor(private readonly deps: DocumentApplierDeps) {}

  async apply(files: readonly StateFile[]): Promise<ApplyResult> {
    const wanted = namespaceDocuments(files);
    const existing = await this.existingNamespaces();
    const changed = [...wanted].filter(([key, doc]) => this.applied.get(key) !== contentOf(doc) || !existing.has(key));
    // One call: every namespace is checked before the first is written, then each lands in its own transaction.
    if (changed.length > 0) await this.importAll(changed.map(([, doc]) => doc));
    for (const [key, doc] of changed) {
      const current = existing.get(key);
      // An import names only the namespaces it creates; one that exists keeps its name unless told.
      if (current !== undefined && key !== DEFAULT_NAMESPACE && (current.name !== doc.namespace.name || current.description !== doc.namespace.description)) {
        await this.deps.namespaces.update({ key, name: doc.namespace.name, description: doc.namespace.description });
      }
      this.applied.set(key, contentOf(doc));
    }
    const applied = changed.map(([key]) => key);
    const removed: string[] = [];
    for (const key of existing.keys()) {
      if (wanted.has(key)) continue;
      await this.deps.namespaces.delete(key, true);
      this.applied.delete(key);
      removed.push(key);
    }
    return { applied, removed };
  }

  /** A document the import refuses is an invalid set (reported once), not a failure to retry. */
  private async importAll(docs: FliptDocument[]): Promise<void> {
    try {
      await this.deps.documents.importDocuments(docs, { drop: true });
    } catch (err) {
      throw isAppError(err) && err.code === Code.InvalidArgument ? new DeclarativeError(err.message) : err;
    }
  }

  private async existingNamespaces(): Promise<Map<string, Namespace>> {
    const out = new Map<string, Namespace>();
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page = await this.deps.namespaces.list({ limit: PAGE, offset });
      for (const ns of page.items) out.set(ns.key, ns);
      offset = page.nextOffset;
    }
    return out;
  }
}
