import { randomUUID } from 'node:crypto';
import type { CreateVariant, Flag, UpdateVariant, Variant } from '@ensign/core';
import { invalid, notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagPartSubject } from '../change-subjects.js';
import type { FlagsRead } from '../loaders/flags-state.loader.js';
import { toVariant, VariantModel } from '../models/variant.model.js';
import { checkVariantNotRequired } from '../prerequisite-graph.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const notUnique = (ns: string, flagKey: string, key: string) => () =>
  invalid(`variant "${key}" is not unique for flag "${ns}/${flagKey}"`);

// COMPAT(flipt): an update that matches no row names the requested variant key, not its id
// (internal/storage/sql/common/flag.go, UpdateVariant).
const variantNotFound = (key: string) => notFound(`variant "${key}" not found`);

/** The flag's state with the flag (its variants) replaced. */
const withFlag = (read: FlagsRead, flag: Flag): FlagsRead => ({ ...read, state: { ...read.state, flags: [flag] } });

/**
 * Variants of a flag; read through the flag. A write reads the flag's state with its revision bump
 * and, mostly, knows the state it leaves, so on PostgreSQL it is four round trips.
 */
export class KnexVariantRepository {
  constructor(private readonly tx: Transactor) {}

  create(req: CreateVariant): Promise<Variant> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const flag = read?.state.flags[0];
        if (read === undefined || flag === undefined) throw notFound(`flag "${ns}/${req.flagKey}" not found`);
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
        const variant = toVariant(row as VariantModel);
        // Variants are read by creation: the new one is last unless another was stamped as late (another clock).
        const last = flag.variants.every((v) => v.createdAt < at);
        return {
          ...created(flagPartSubject('variant', req.flagKey, row.id), variant),
          ...(last ? { known: withFlag(read, { ...flag, variants: [...flag.variants, variant] }) } : {}),
          lastWrites: [trx('variants').insert(row)],
        };
      },
      {
        ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`),
        hints: { notUnique: notUnique(ns, req.flagKey, req.key) },
        readFirst: { keys: [req.flagKey] },
      },
    );
  }

  update(req: UpdateVariant): Promise<Variant> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const flag = read?.state.flags[0];
        const before = flag?.variants.find((v) => v.id === req.id);
        if (read === undefined || flag === undefined || before === undefined) throw variantNotFound(req.key);
        if (req.key !== before.key) await checkVariantNotRequired(trx, ns, req.flagKey, before.key);
        const { key, name, description, attachment } = req;
        const patch = { key, name, description, attachment, updated_at: at };
        const after: Variant = { ...before, key, name, description, attachment: attachment ?? '', updatedAt: at };
        // Variants are read by creation then key: a new key may move it.
        const known =
          key === before.key
            ? withFlag(read, {
                ...flag,
                variants: flag.variants.map((v) => (v.id === req.id ? after : v)),
                ...(flag.defaultVariant?.id === req.id ? { defaultVariant: after } : {}),
              })
            : undefined;
        return {
          ...updated(flagPartSubject('variant', req.flagKey, req.id), before, after),
          ...(known === undefined ? {} : { known }),
          lastWrites: [trx('variants').where({ id: req.id, namespace_key: ns, flag_key: req.flagKey }).update(patch)],
        };
      },
      {
        ifNamespaceMissing: () => variantNotFound(req.key),
        hints: { notUnique: notUnique(ns, req.flagKey, req.key) },
        readFirst: { keys: [req.flagKey] },
      },
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
