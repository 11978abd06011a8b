/** What an import is asked to do and what it did, per namespace. */

export interface ImportOptions {
  /**
   * Replace each imported namespace's flags and segments by the documents' (Flipt's `--drop`,
   * which drops every namespace; here only the namespaces the import names).
   */
  drop?: boolean;
  /** Leave flags and segments whose keys the namespace already has as they are (`--skip-existing`). */
  skipExisting?: boolean;
}

/** How many flags (segments) an import wrote, left alone, and deleted. */
export interface ImportCounts {
  /** Written from the documents (with `drop`, also those that replaced one of the same key). */
  imported: number;
  /** Already in the namespace and kept as they were (`skipExisting`). */
  skipped: number;
  /** In the namespace before, not in the documents, deleted (`drop`). */
  removed: number;
}

/** One namespace's import: one transaction, one revision, one change. */
export interface NamespaceImport {
  namespaceKey: string;
  /** The namespace's revision after the import. */
  revision: number;
  /** Whether the import created the namespace. */
  createdNamespace: boolean;
  flags: ImportCounts;
  segments: ImportCounts;
}

export interface ImportSummary {
  /** In the order the documents first name them. */
  namespaces: NamespaceImport[];
}
