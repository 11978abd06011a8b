import type { Knex } from 'knex';
import type { CreateFlag, Flag, Page, PageRequest, Prerequisite, UpdateFlag } from '@ensign/core';
import { invalid, invalidField, notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagSubject } from '../change-subjects.js';
import { loadFlag, toFlag, withVariants } from '../loaders/flag.loader.js';
import { FlagModel } from '../models/flag.model.js';
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

/** The id of the default variant an update names, by id or by key (Ensign's extension), among the flag's variants; null when it names none. */
function defaultVariantOf(flag: Flag, ns: string, req: UpdateFlag): string | null {
  if (req.defaultVariantKey !== undefined && req.defaultVariantKey !== '') {
    const variant = flag.variants.find((v) => v.key === req.defaultVariantKey);
    if (variant === undefined) throw invalidField('defaultVariantKey', `flag "${ns}/${req.key}" has no variant "${req.defaultVariantKey}"`);
    return variant.id;
  }
  if (req.defaultVariantId === '') return null;
  if (!flag.variants.some((v) => v.id === req.defaultVariantId)) {
    throw invalid(`variant "${req.defaultVariantId}" not found for flag "${ns}/${req.key}"`);
  }
  return req.defaultVariantId;
}

/** The stored form of a column a flag carries parsed (metadata, prerequisites): NULL when absent. */
const storedJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

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

  /** A new flag has no rules, rollouts or schedules (theirs went with any flag of its key before), so its state is known. */
  create(req: CreateFlag): Promise<Flag> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        await checkPrerequisitesStored(trx, ns, req.key, req.prerequisites ?? []);
        const row = {
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
        };
        const flag = toFlag(row as FlagModel, [], 'get');
        return {
          ...created(flagSubject(req.key), flag),
          known: { state: { flags: [flag], rules: [], rollouts: [], segments: [], schedules: [] }, removed: [] },
          lastWrites: [trx('flags').insert(row)],
        };
      },
      {
        ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`),
        hints: { notUnique: () => invalid(`flag "${ns}/${req.key}" is not unique`) },
      },
    );
  }

  /**
   * Reads the flag's state with the revision bump and writes its row with the change record, so on
   * PostgreSQL an update is four round trips: its variants are known, and so is the row it leaves.
   */
  update(req: UpdateFlag): Promise<Flag> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const before = read?.state.flags[0];
        if (read === undefined || before === undefined) throw flagNotFound(ns, req.key);
        if (req.prerequisites !== undefined) await checkPrerequisitesStored(trx, ns, req.key, req.prerequisites);
        const patch = {
          name: req.name,
          description: req.description,
          enabled: req.enabled,
          default_variant_id: defaultVariantOf(before, ns, req),
          ...(req.metadata === undefined ? {} : { metadata: metadataColumn(req.metadata) }),
          ...(req.prerequisites === undefined ? {} : { prerequisites: prerequisitesColumn(req.prerequisites) }),
          updated_at: at,
        };
        const row = {
          namespace_key: ns,
          key: req.key,
          type: before.type,
          metadata: storedJson(before.metadata),
          prerequisites: storedJson(before.prerequisites),
          created_at: before.createdAt,
          ...patch,
        } as FlagModel;
        const after = toFlag(row, before.variants, 'get');
        return {
          ...updated(flagSubject(req.key), before, after),
          known: { state: { ...read.state, flags: [after] }, removed: [] },
          lastWrites: [trx('flags').where({ namespace_key: ns, key: req.key }).update(patch)],
        };
      },
      { ifNamespaceMissing: () => flagNotFound(ns, req.key), readFirst: { keys: [req.key] } },
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
