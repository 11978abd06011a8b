import { documentOfResources, invalid, type FliptDocument } from '@ensign/core';
import { groupByNamespace, planNamespace } from '../documents/import-plan.js';
import type { ImportOptions, ImportSummary, NamespaceImport } from '../documents/import-summary.js';
import { checkImportPrerequisites } from '../documents/import-prerequisites.js';
import { importNamespace, NOTHING, readExistingKeys } from '../documents/namespace-import.js';
import { listNamespaceRevisions, readNamespaceState } from '../loaders/namespace-state.loader.js';
import { NamespaceModel } from '../models/namespace.model.js';
import type { Transactor } from '../transactor.js';

/**
 * Namespaces as whole Flipt documents: `flipt export` and `flipt import`. An import writes each
 * namespace in one transaction (one revision, one `imported` change, one snapshot update), in bulk
 * statements, after checking every document against every namespace it names.
 */
export class KnexDocumentRepository {
  constructor(private readonly tx: Transactor) {}

  /** Every namespace's key, by creation (the order Flipt's `--all-namespaces` exports them). */
  async namespaceKeys(): Promise<string[]> {
    return (await this.tx.read((db) => listNamespaceRevisions(db))).map((n) => n.key);
  }

  /** The namespace as one document, flags and segments by creation, read at one point in time; undefined when there is no such namespace. */
  async exportNamespace(key: string): Promise<FliptDocument | undefined> {
    const state = await this.tx.readConsistent((trx) => readNamespaceState(trx, key));
    return state === undefined ? undefined : documentOfResources(state);
  }

  /**
   * Imports documents (decoded by core's `decodeFliptDocuments`); the documents of one namespace
   * are imported together. Every namespace's plan is checked before the first is written, so a
   * conflict, a missing segment or an unmet prerequisite anywhere writes nothing; each namespace
   * then lands whole or not at all (a database failure part way leaves the namespaces before it
   * imported). Schedules whose time has come by the write are in effect from it (the flag's
   * `enabled`); later ones, and the window edges and ramp steps still to come, are pending steps
   * set up by the importing actor.
   */
  async importDocuments(docs: readonly FliptDocument[], options: ImportOptions): Promise<ImportSummary> {
    const groups = groupByNamespace(docs);
    await this.tx.read(async (db) => {
      for (const group of groups) {
        const exists = (await NamespaceModel.query(db).findById(group.key)) !== undefined;
        const existing = exists ? await readExistingKeys(db, group.key) : NOTHING;
        await checkImportPrerequisites(db, group, planNamespace(group, existing, options), options, existing.flags);
      }
    });
    const namespaces: NamespaceImport[] = [];
    const actor = this.tx.actor();
    for (const group of groups) {
      namespaces.push(
        await this.tx.transact((trx, at) => importNamespace(trx, this.tx.dialect, group, options, at, actor), {
          notUnique: () => invalid(`namespace "${group.key}" was written by another request during the import; import again`),
        }),
      );
    }
    return { namespaces };
  }
}
