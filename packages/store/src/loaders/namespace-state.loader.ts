import type { Knex } from 'knex';
import { NamespaceModel, toNamespace } from '../models/namespace.model.js';
import type { NamespaceRevision, NamespaceState } from '../types.js';
import { readStateFlags, readStateRollouts, readStateRules, readStateSchedules, readStateSegments } from './state-parts.loader.js';

/**
 * A namespace's whole state, or undefined when it does not exist. A fixed number of queries
 * whatever its size; run it in a consistent-read transaction so the revision and rows agree.
 */
export async function readNamespaceState(db: Knex, ns: string): Promise<NamespaceState | undefined> {
  const namespace = await NamespaceModel.query(db).findById(ns);
  if (namespace === undefined) return undefined;
  return {
    namespace: toNamespace(namespace),
    revision: Number(namespace.revision),
    flags: await readStateFlags(db, ns, undefined),
    rules: await readStateRules(db, ns, undefined),
    rollouts: await readStateRollouts(db, ns, undefined),
    segments: await readStateSegments(db, ns, undefined),
    schedules: await readStateSchedules(db, ns, undefined),
  };
}

/** Every namespace with its revision, by creation. */
export async function listNamespaceRevisions(db: Knex): Promise<NamespaceRevision[]> {
  const rows = (await db('namespaces')
    .select('key', 'revision')
    .orderBy([{ column: 'created_at' }, { column: 'key' }])) as Array<{ key: string; revision: number | string }>;
  return rows.map((r) => ({ key: r.key, revision: Number(r.revision) }));
}
