/**
 * One namespace's import inside its transaction: the namespace created when missing (or its
 * revision bumped once), the plan and its prerequisites checked again against what the namespace
 * holds now, then everything written in bulk, reported as one `imported` change on the namespace
 * that touches every flag written or dropped.
 */
import type { Knex } from 'knex';
import type { Actor, Namespace } from '@ensign/core';
import type { ChangeDraft } from '../change-draft.js';
import { NamespaceModel, toNamespace } from '../models/namespace.model.js';
import { takeTombstone } from '../namespace-tombstones.js';
import { bumpRevision } from '../revision-bump.js';
import type { Written } from '../transactor.js';
import type { Dialect } from '../types.js';
import { insertRows, setDefaultVariants } from './bulk-write.js';
import { planNamespace, type ExistingKeys, type NamespaceGroup, type NamespacePlan } from './import-plan.js';
import { checkImportPrerequisites } from './import-prerequisites.js';
import { importRows } from './import-rows.js';
import type { ImportOptions, NamespaceImport } from './import-summary.js';

export const NOTHING: ExistingKeys = { flags: new Map(), segments: new Map() };

/** The flag and segment keys the namespace holds, with their rows' creation times. */
export async function readExistingKeys(db: Knex, namespaceKey: string): Promise<ExistingKeys> {
  const keys = async (table: string) =>
    new Map(((await db(table).select('key', 'created_at').where('namespace_key', namespaceKey)) as Array<{ key: string; created_at: string }>).map((r) => [r.key, r.created_at]));
  return { flags: await keys('flags'), segments: await keys('segments') };
}

/** Creates the namespace; its first revision follows the last one of a deleted namespace of that key. */
async function createNamespace(trx: Knex.Transaction, dialect: Dialect, group: NamespaceGroup, at: string): Promise<number> {
  const { key, name, description } = group.namespace;
  await NamespaceModel.query(trx).insert({ key, name, description, protected: false, revision: 1, state_modified_at: at, created_at: at, updated_at: at });
  const revision = await takeTombstone(trx, dialect, key);
  if (revision !== 1) await NamespaceModel.query(trx).findById(key).patch({ revision });
  return revision;
}

async function write(trx: Knex.Transaction, plan: NamespacePlan, options: ImportOptions, at: string, actor: Actor | undefined): Promise<void> {
  if (options.drop) {
    // Flags go first so their rules and rollouts release the segments, which RESTRICT deletes.
    await trx('flags').where('namespace_key', plan.key).delete();
    await trx('segments').where('namespace_key', plan.key).delete();
  }
  const rows = importRows(plan, at, actor);
  for (const [table, tableRows] of rows.tables) await insertRows(trx, table, tableRows);
  await setDefaultVariants(trx, plan.key, rows.defaults);
}

/** The change record of the import: the namespace as it was and is, and what the import did. */
function importedChange(plan: NamespacePlan, before: Namespace | undefined, after: Namespace, options: ImportOptions): ChangeDraft {
  return {
    resource: 'namespace',
    key: plan.key,
    action: 'imported',
    ...(before === undefined ? {} : { before }),
    after: { ...after, import: { drop: options.drop === true, skipExisting: options.skipExisting === true, flags: plan.flagCounts, segments: plan.segmentCounts } },
    touched: { kind: 'flags', keys: plan.touchedFlags },
  };
}

/**
 * The transaction's work for one namespace (see `Transactor.transact`); the pending steps it
 * writes (schedules, window edges, ramp steps) are set up by `actor`.
 */
export async function importNamespace(
  trx: Knex.Transaction,
  dialect: Dialect,
  group: NamespaceGroup,
  options: ImportOptions,
  at: string,
  actor: Actor | undefined,
): Promise<Written<NamespaceImport>> {
  // The revision bump goes first: it locks the namespace row, so imports and writes to it apply one at a time.
  const bumped = await bumpRevision(trx, group.key, at);
  const before = bumped === undefined ? undefined : toNamespace(await NamespaceModel.query(trx).findById(group.key).throwIfNotFound());
  const revision = bumped ?? (await createNamespace(trx, dialect, group, at));
  const existing = bumped === undefined ? NOTHING : await readExistingKeys(trx, group.key);
  const plan = planNamespace(group, existing, options);
  await checkImportPrerequisites(trx, group, plan, options, existing.flags);
  await write(trx, plan, options, at, actor);
  const after = toNamespace(await NamespaceModel.query(trx).findById(group.key).throwIfNotFound());
  const value: NamespaceImport = {
    namespaceKey: group.key,
    revision,
    createdNamespace: bumped === undefined,
    flags: plan.flagCounts,
    segments: plan.segmentCounts,
  };
  return { value, change: importedChange(plan, before, after, options), namespaceKey: group.key, revision };
}
