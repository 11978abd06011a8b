import type { Knex } from 'knex';
import type { CreateFlag, Flag, Page, PageRequest, Prerequisite, UpdateFlag } from '@ensign/core';
import { invalid, invalidField, notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagSubject } from '../change-subjects.js';
import { loadFlag, withVariants } from '../loaders/flag.loader.js';
import { FlagModel } from '../models/flag.model.js';
import { VariantModel } from '../models/variant.model.js';
import { applyWindow, fetchPage } from '../paging.js';
import { checkNotRequired, checkPrerequisitesStored } from '../prerequisite-graph.js';
import { countRows, nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const flagNotFound = (ns: string, key: string) => notFound(`flag "${ns}/${key}" not found`);

/** Stored prerequisites: NULL for none, else the list as JSON. */
const prerequisitesColumn = (prerequisites: readonly Prerequisite[]): string | null =>
  prerequisites.length === 0 ? null : JSON.stringify(prerequisites);

/** Stored metadata: NULL for unset or `{}`, else the object as JSON. */
const metadataColumn = (metadata: Record<string, unknown>): string | null =>
  Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata);

async function mustLoad(db: Knex, ns: string, key: string): Promise<Flag> {
  const flag = await loadFlag(db, ns, key, 'get');
  if (flag === undefined) throw flagNotFound(ns, key);
  return flag;
}

/** The id of the default variant an update names, by id or by key (Ensign's extension); null when it names none. */
async function defaultVariantOf(trx: Knex.Transaction, ns: string, req: UpdateFlag): Promise<string | null> {
  const ofFlag = { namespace_key: ns, flag_key: req.key };
  if (req.defaultVariantKey !== undefined && req.defaultVariantKey !== '') {
    const row = await VariantModel.query(trx).findOne({ ...ofFlag, key: req.defaultVariantKey });
    if (row === undefined) throw invalidField('defaultVariantKey', `flag "${ns}/${req.key}" has no variant "${req.defaultVariantKey}"`);
    return row.id;
  }
  if (req.defaultVariantId === '') return null;
  if ((await VariantModel.query(trx).findOne({ ...ofFlag, id: req.defaultVariantId })) === undefined) {
    throw invalid(`variant "${req.defaultVariantId}" not found for flag "${ns}/${req.key}"`);
  }
  return req.defaultVariantId;
}

/** Flags with their variants; deleting one cascades to everything under it. */
export class KnexFlagRepository {
  constructor(private readonly tx: Transactor) {}

  list(namespaceKey: string, page: PageRequest): Promise<Page<Flag>> {
    const ns = nsOf(namespaceKey);
    return this.tx.read((db) =>
      fetchPage(
        page,
        (limit, offset) =>
          applyWindow(
            FlagModel.query(db).where('namespace_key', ns).orderBy([{ column: 'created_at' }, { column: 'key' }]),
            limit,
            offset,
          ),
        () => countRows(db, 'flags', { namespace_key: ns }),
        (rows) => withVariants(db, ns, rows, 'list'),
      ),
    );
  }

  get(namespaceKey: string, key: string): Promise<Flag> {
    return this.tx.read((db) => mustLoad(db, nsOf(namespaceKey), key));
  }

  create(req: CreateFlag): Promise<Flag> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        await checkPrerequisitesStored(trx, ns, req.key, req.prerequisites ?? []);
        await FlagModel.query(trx).insert({
          namespace_key: ns,
          key: req.key,
          name: req.name,
          description: req.description,
          enabled: req.enabled,
          type: req.type,
          default_variant_id: null,
          metadata: req.metadata === undefined ? null : metadataColumn(req.metadata),
          prerequisites: prerequisitesColumn(req.prerequisites ?? []),
          created_at: at,
          updated_at: at,
        });
        return created(flagSubject(req.key), await mustLoad(trx, ns, req.key));
      },
      {
        ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`),
        hints: { notUnique: () => invalid(`flag "${ns}/${req.key}" is not unique`) },
      },
    );
  }

  update(req: UpdateFlag): Promise<Flag> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const before = await mustLoad(trx, ns, req.key);
        if (req.prerequisites !== undefined) await checkPrerequisitesStored(trx, ns, req.key, req.prerequisites);
        const defaultVariantId = await defaultVariantOf(trx, ns, req);
        await FlagModel.query(trx)
          .findById([ns, req.key])
          .patch({
            name: req.name,
            description: req.description,
            enabled: req.enabled,
            default_variant_id: defaultVariantId,
            ...(req.metadata === undefined ? {} : { metadata: metadataColumn(req.metadata) }),
            ...(req.prerequisites === undefined ? {} : { prerequisites: prerequisitesColumn(req.prerequisites) }),
            updated_at: at,
          });
        return updated(flagSubject(req.key), before, await mustLoad(trx, ns, req.key));
      },
      { ifNamespaceMissing: () => flagNotFound(ns, req.key) },
    );
  }

  delete(namespaceKey: string, key: string): Promise<void> {
    const ns = nsOf(namespaceKey);
    return this.tx.remove(ns, async (trx) => {
      const before = await loadFlag(trx, ns, key, 'get');
      if (before === undefined) return undefined;
      await checkNotRequired(trx, ns, key);
      await FlagModel.query(trx).deleteById([ns, key]);
      return deleted(flagSubject(key), before);
    });
  }
}
