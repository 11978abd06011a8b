import type { CreateNamespace, Namespace, Page, PageRequest, UpdateNamespace } from '@ensign/core';
import { invalid, notFound } from '@ensign/core';
import { NamespaceModel, toNamespace } from '../models/namespace.model.js';
import { applyWindow, fetchPage } from '../paging.js';
import { created, deleted, updated } from '../change-draft.js';
import { namespaceSubject } from '../change-subjects.js';
import { CREATES_NAMESPACE, DELETES_NAMESPACE, TOUCHES_NOTHING } from '../snapshot-effect.js';
import { bumpRevision } from '../revision-bump.js';
import type { Transactor } from '../transactor.js';
import { countRows } from '../sql-util.js';
import { leaveTombstone, takeTombstone } from '../namespace-tombstones.js';

const missing = (key: string) => notFound(`namespace "${key}" not found`);

/**
 * Namespaces. Creating one starts its revision at 1, or just after the last revision of a deleted
 * namespace of that key, so revisions never go backwards for a key; deleting one, with everything
 * in it, is one change at the delete's revision.
 */
export class KnexNamespaceRepository {
  constructor(private readonly tx: Transactor) {}

  /** With `keys`, only those namespaces (list and total). */
  list(page: PageRequest, keys?: readonly string[]): Promise<Page<Namespace>> {
    const among = <Q extends { whereIn(column: string, values: readonly string[]): Q }>(query: Q): Q => (keys === undefined ? query : query.whereIn('key', keys));
    return this.tx.read((db) =>
      fetchPage(
        page,
        (limit, offset) =>
          applyWindow(among(NamespaceModel.query(db)).orderBy([{ column: 'created_at' }, { column: 'key' }]), limit, offset),
        () => among(NamespaceModel.query(db)).resultSize(),
        async (rows) => rows.map(toNamespace),
      ),
    );
  }

  async get(key: string): Promise<Namespace> {
    const row = await this.tx.read((db) => NamespaceModel.query(db).findById(key));
    if (row === undefined) throw missing(key);
    return toNamespace(row);
  }

  create(req: CreateNamespace): Promise<Namespace> {
    return this.tx.transact(
      async (trx, at) => {
        const row = {
          key: req.key,
          name: req.name,
          description: req.description,
          protected: false,
          revision: 1,
          state_modified_at: at,
          created_at: at,
          updated_at: at,
        };
        await NamespaceModel.query(trx).insert(row);
        const revision = await takeTombstone(trx, this.tx.dialect, req.key);
        if (revision !== 1) await NamespaceModel.query(trx).findById(req.key).patch({ revision });
        return { ...created(namespaceSubject(req.key, CREATES_NAMESPACE), toNamespace(row as NamespaceModel)), namespaceKey: req.key, revision };
      },
      { notUnique: () => invalid(`namespace "${req.key}" is not unique`) },
    );
  }

  update(req: UpdateNamespace): Promise<Namespace> {
    return this.tx.write(
      req.key,
      async (trx, at) => {
        const before = toNamespace(await NamespaceModel.query(trx).findById(req.key).throwIfNotFound());
        await NamespaceModel.query(trx)
          .findById(req.key)
          .patch({ name: req.name, description: req.description, updated_at: at });
        const after = toNamespace(await NamespaceModel.query(trx).findById(req.key).throwIfNotFound());
        return updated(namespaceSubject(req.key, TOUCHES_NOTHING), before, after);
      },
      { ifNamespaceMissing: () => missing(req.key) },
    );
  }

  delete(key: string, force: boolean): Promise<void> {
    return this.tx.transact(async (trx, at) => {
      const revision = await bumpRevision(trx, key, at);
      const row = await NamespaceModel.query(trx).findById(key);
      if (revision === undefined || row === undefined) throw missing(key);
      if (!force) {
        if (row.protected) throw invalid(`namespace "${key}" is protected`);
        if ((await countRows(trx, 'flags', { namespace_key: key })) > 0) {
          throw invalid(`namespace "${key}" cannot be deleted; flags must be deleted first`);
        }
      }
      // Flags go first so their rules and rollouts release the segments, which RESTRICT deletes.
      await trx('flags').where({ namespace_key: key }).delete();
      await trx('segments').where({ namespace_key: key }).delete();
      await NamespaceModel.query(trx).deleteById(key);
      await leaveTombstone(trx, key, revision);
      const change = deleted(namespaceSubject(key, DELETES_NAMESPACE), toNamespace(row));
      return { value: undefined, change, namespaceKey: key, revision };
    });
  }
}
