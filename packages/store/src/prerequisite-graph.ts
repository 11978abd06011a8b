/**
 * Prerequisites checked against what the namespace holds: each parent exists, has the variants
 * asked of it, and no chain of prerequisites leads back to the flag.
 */
import type { Knex } from 'knex';
import { conflict, invalidField, type Prerequisite } from '@ensign/core';

interface FlagEdges {
  key: string;
  type: string;
  prerequisites: string | null;
}

const parentsOf = (row: FlagEdges | undefined): string[] =>
  row?.prerequisites ? (JSON.parse(row.prerequisites) as Prerequisite[]).map((p) => p.flagKey) : [];

/** The first path from `from` to `to` following prerequisites, or undefined. */
function pathBetween(edges: ReadonlyMap<string, string[]>, from: string, to: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (key: string): string[] | undefined => {
    if (key === to) return [key];
    if (seen.has(key)) return undefined;
    seen.add(key);
    for (const parent of edges.get(key) ?? []) {
      const rest = walk(parent);
      if (rest !== undefined) return [key, ...rest];
    }
    return undefined;
  };
  return walk(from);
}

/** Refuses prerequisites of `flagKey` naming a missing flag or variant, or closing a cycle. */
export async function checkPrerequisitesStored(db: Knex, ns: string, flagKey: string, prerequisites: readonly Prerequisite[]): Promise<void> {
  if (prerequisites.length === 0) return;
  const rows = (await db('flags').select('key', 'type', 'prerequisites').where('namespace_key', ns)) as FlagEdges[];
  const flags = new Map(rows.map((r) => [r.key, r]));
  for (const [i, p] of prerequisites.entries()) {
    const parent = flags.get(p.flagKey);
    if (parent === undefined) throw invalidField(`prerequisites[${i}].flagKey`, `flag "${ns}/${p.flagKey}" not found`);
    if (p.variants === undefined) continue;
    if (parent.type !== 'VARIANT_FLAG_TYPE') throw invalidField(`prerequisites[${i}].variants`, `flag "${p.flagKey}" is a boolean flag; ask for enabled: true or false`);
    const held = new Set(((await db('variants').select('key').where({ namespace_key: ns, flag_key: p.flagKey })) as Array<{ key: string }>).map((v) => v.key));
    const missing = p.variants.filter((v) => !held.has(v));
    if (missing.length > 0) throw invalidField(`prerequisites[${i}].variants`, `flag "${p.flagKey}" has no variant ${missing.map((v) => `"${v}"`).join(', ')}`);
  }
  const edges = new Map(rows.map((r) => [r.key, parentsOf(r)]));
  edges.set(flagKey, prerequisites.map((p) => p.flagKey));
  for (const [i, p] of prerequisites.entries()) {
    const back = pathBetween(edges, p.flagKey, flagKey);
    if (back !== undefined) throw invalidField(`prerequisites[${i}].flagKey`, `would close a cycle: ${[flagKey, ...back].join(' → ')}`);
  }
}

/** Refuses deleting a flag that other flags require, naming them. */
export async function checkNotRequired(db: Knex, ns: string, flagKey: string): Promise<void> {
  const rows = (await db('flags').select('key', 'type', 'prerequisites').where('namespace_key', ns).whereNotNull('prerequisites')) as FlagEdges[];
  const dependents = rows.filter((r) => r.key !== flagKey && parentsOf(r).includes(flagKey)).map((r) => r.key);
  if (dependents.length > 0) {
    throw conflict(`flag "${ns}/${flagKey}" is a prerequisite of ${dependents.map((k) => `"${k}"`).join(', ')}; remove it from their prerequisites first`);
  }
}

/** Refuses deleting a variant that another flag's prerequisite asks for. */
export async function checkVariantNotRequired(db: Knex, ns: string, flagKey: string, variantKey: string): Promise<void> {
  const rows = (await db('flags').select('key', 'type', 'prerequisites').where('namespace_key', ns).whereNotNull('prerequisites')) as FlagEdges[];
  const dependents = rows
    .filter((r) => (JSON.parse(r.prerequisites!) as Prerequisite[]).some((p) => p.flagKey === flagKey && p.variants?.includes(variantKey)))
    .map((r) => r.key);
  if (dependents.length > 0) {
    throw conflict(`variant "${variantKey}" of flag "${ns}/${flagKey}" is required by the prerequisites of ${dependents.map((k) => `"${k}"`).join(', ')}`);
  }
}
