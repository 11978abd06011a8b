/**
 * The prerequisites of the flags an import writes, checked against those flags and what the
 * namespace keeps: a parent the import does not write must be a flag the namespace has (none
 * with `drop`), with the variants asked of it. Only the parents named are read, so an import
 * without prerequisites costs no query.
 */
import type { Knex } from 'knex';
import { checkPrerequisiteReferences, type FlagType, type PlacedFlag, type Prerequisite, type PrerequisiteParent } from '@ensign/core';
import { groupBy, inChunks } from '../sql-util.js';
import type { NamespaceGroup, NamespacePlan } from './import-plan.js';
import type { ImportOptions } from './import-summary.js';

/** The written flags of the group, each with its document and place in it. */
function writtenFlags(group: NamespaceGroup, plan: NamespacePlan): PlacedFlag[] {
  const written = new Set(plan.flags);
  return group.docs.flatMap(({ doc, at }) => doc.flags.flatMap((flag, i) => (written.has(flag) ? [{ flag, at, path: `flags[${i}]` }] : [])));
}

interface FlagRow {
  key: string;
  type: FlagType;
  prerequisites: string | null;
}

interface VariantRow {
  flag_key: string;
  key: string;
}

/** The namespace's flags of these keys as prerequisites see them. */
async function readParents(db: Knex, ns: string, keys: readonly string[]): Promise<Map<string, PrerequisiteParent>> {
  const parents = new Map<string, PrerequisiteParent>();
  if (keys.length === 0) return parents;
  const flags = await inChunks(keys, (chunk) => db('flags').select('key', 'type', 'prerequisites').where('namespace_key', ns).whereIn('key', chunk) as Promise<FlagRow[]>);
  const variants = groupBy(
    await inChunks(keys, (chunk) => db('variants').select('flag_key', 'key').where('namespace_key', ns).whereIn('flag_key', chunk) as Promise<VariantRow[]>),
    (v) => v.flag_key,
  );
  for (const flag of flags) {
    const requires = flag.prerequisites === null ? [] : (JSON.parse(flag.prerequisites) as Prerequisite[]).map((p) => p.flagKey);
    parents.set(flag.key, { type: flag.type, variants: (variants.get(flag.key) ?? []).map((v) => v.key), requires });
  }
  return parents;
}

/** Throws (a 400 naming the document and path) the first prerequisite of a written flag that the namespace cannot satisfy. */
export async function checkImportPrerequisites(db: Knex, group: NamespaceGroup, plan: NamespacePlan, options: ImportOptions, existingFlags: ReadonlyMap<string, string>): Promise<void> {
  const placed = writtenFlags(group, plan);
  const writtenKeys = new Set(plan.flags.map((f) => f.key));
  const named = new Set(placed.flatMap(({ flag }) => (flag.prerequisites ?? []).map((p) => p.flagKey)));
  // With drop the namespace keeps nothing; otherwise only flags it has can be read.
  const outsideKeys = options.drop ? [] : [...named].filter((key) => !writtenKeys.has(key) && existingFlags.has(key));
  const parents = await readParents(db, plan.key, outsideKeys);
  checkPrerequisiteReferences(placed, {
    namespaceKey: plan.key,
    outside: (key) => parents.get(key),
    ...(options.drop ? { missingNote: ' (the import drops what the namespace had)' } : {}),
  });
}
