import type { Knex } from 'knex';
import type { Constraint, Segment } from '@ensign/core';
import { ConstraintModel, toConstraint } from '../models/constraint.model.js';
import { SegmentModel } from '../models/segment.model.js';
import { groupBy, inChunks } from '../sql-util.js';

/** A segment row as the wire reports it, given its constraints by creation. */
export const toSegment = (row: SegmentModel, constraints: Constraint[]): Segment => ({
  namespaceKey: row.namespace_key,
  key: row.key,
  name: row.name,
  description: row.description,
  matchType: row.match_type,
  constraints,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Segments of one namespace with their constraints (by creation). */
export async function withConstraints(db: Knex, namespaceKey: string, rows: SegmentModel[]): Promise<Segment[]> {
  const constraintRows = await inChunks(rows.map((r) => r.key), (keys) =>
    ConstraintModel.query(db)
      .where('namespace_key', namespaceKey)
      .whereIn('segment_key', keys)
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
  );
  const bySegment = groupBy(constraintRows, (c) => c.segment_key);
  return rows.map((row) => toSegment(row, (bySegment.get(row.key) ?? []).map(toConstraint)));
}

/** One segment with its constraints, or undefined. */
export async function loadSegment(db: Knex, namespaceKey: string, key: string): Promise<Segment | undefined> {
  const row = await SegmentModel.query(db).findById([namespaceKey, key]);
  if (row === undefined) return undefined;
  const [segment] = await withConstraints(db, namespaceKey, [row]);
  return segment;
}
