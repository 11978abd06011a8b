import type { FliptDocument } from '@ensign/core';

export interface ImportDocumentsOptions {
  /** Deletes every flag and segment of each namespace first. */
  drop?: boolean;
  /** Leaves flags and segments whose keys are already there as they are. */
  skipExisting?: boolean;
}

/** Namespaces as whole Flipt documents (`flipt import`, `flipt export`). */
export interface DocumentRepository {
  /** The namespace as a document, flags and segments in creation order; undefined when it does not exist. */
  exportNamespace(key: string): Promise<FliptDocument | undefined>;
  /** One transaction and one change per namespace, creating a namespace that is missing. */
  importDocuments(docs: readonly FliptDocument[], options: ImportDocumentsOptions): Promise<{ namespaces: ReadonlyArray<{ namespaceKey: string; revision: number }> }>;
}
