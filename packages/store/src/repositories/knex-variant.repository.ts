import { randomUUID } from 'node:crypto';
import type { CreateVariant, UpdateVariant, Variant } from '@ensign/core';
import { invalid, notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagPartSubject } from '../change-subjects.js';
import { FlagModel } from '../models/flag.model.js';
import { toVariant, VariantModel } from '../models/variant.model.js';
import { checkVariantNotRequired } from '../prerequisite-graph.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const notUnique = (ns: string, flagKey: string, key: string) => () =>
  invalid(`variant "${key}" is not unique for flag "${ns}/${flagKey}"`);

// COMPAT(flipt): an update that matches no row names the requested variant key, not its id
// (internal/storage/sql/common/flag.go, UpdateVariant).
const variantNotFound = (key: string) => notFound(`variant "${key}" not found`);

/** Variants of a flag; read through the flag. */
export class KnexVariantRepository {
  constructor(private readonly tx: Transactor) {}

  create(req: CreateVariant): Promise<Variant> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        if ((await FlagModel.query(trx).findById([ns, req.flagKey])) === undefined) {
          throw notFound(`flag "${ns}/${req.flagKey}" not found`);
        }
        const row = {
          id: randomUUID(),
          namespace_key: ns,
          flag_key: req.flagKey,
          key: req.key,
          name: req.name,
          description: req.description,
          attachment: req.attachment,
          created_at: at,
          updated_at: at,
        };
        await VariantModel.query(trx).insert(row);
        return created(flagPartSubject('variant', req.flagKey, row.id), toVariant(row as VariantModel));
      },
      {
        ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`),
        hints: { notUnique: notUnique(ns, req.flagKey, req.key) },
      },
    );
  }

  update(req: UpdateVariant): Promise<Variant> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const where = { id: req.id, namespace_key: ns, flag_key: req.flagKey };
        const current = await VariantModel.query(trx).findOne(where);
        if (current === undefined) throw variantNotFound(req.key);
        const before = toVariant(current);
        if (req.key !== current.key) await checkVariantNotRequired(trx, ns, req.flagKey, current.key);
        const { key, name, description, attachment } = req;
        const patch = { key, name, description, attachment, updated_at: at };
        await VariantModel.query(trx).where(where).patch(patch);
        return updated(flagPartSubject('variant', req.flagKey, req.id), before, toVariant(Object.assign(current, patch)));
      },
      { ifNamespaceMissing: () => variantNotFound(req.key), hints: { notUnique: notUnique(ns, req.flagKey, req.key) } },
    );
  }

  /** Its distributions go with it and a flag that defaulted to it has no default any more (FKs). */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    const ns = nsOf(namespaceKey);
    return this.tx.remove(ns, async (trx) => {
      const where = { id, namespace_key: ns, flag_key: flagKey };
      const row = await VariantModel.query(trx).findOne(where);
      if (row === undefined) return undefined;
      await checkVariantNotRequired(trx, ns, flagKey, row.key);
      await VariantModel.query(trx).where(where).delete();
      return deleted(flagPartSubject('variant', flagKey, id), toVariant(row));
    });
  }
}
