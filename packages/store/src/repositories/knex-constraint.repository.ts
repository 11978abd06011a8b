import { randomUUID } from 'node:crypto';
import type { Constraint, CreateConstraint, UpdateConstraint } from '@ensign/core';
import { notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { constraintSubject } from '../change-subjects.js';
import { ConstraintModel, toConstraint } from '../models/constraint.model.js';
import { SegmentModel } from '../models/segment.model.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const constraintNotFound = (id: string) => notFound(`constraint "${id}" not found`);

/** Constraints of a segment; read through the segment. */
export class KnexConstraintRepository {
  constructor(private readonly tx: Transactor) {}

  create(req: CreateConstraint): Promise<Constraint> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        if ((await SegmentModel.query(trx).findById([ns, req.segmentKey])) === undefined) {
          throw notFound(`segment "${ns}/${req.segmentKey}" not found`);
        }
        const row = {
          id: randomUUID(),
          namespace_key: ns,
          segment_key: req.segmentKey,
          type: req.type,
          property: req.property,
          operator: req.operator,
          value: req.value,
          description: req.description,
          created_at: at,
          updated_at: at,
        };
        await ConstraintModel.query(trx).insert(row);
        return created(constraintSubject(req.segmentKey, row.id), toConstraint(row as ConstraintModel));
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`) },
    );
  }

  update(req: UpdateConstraint): Promise<Constraint> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const where = { id: req.id, namespace_key: ns, segment_key: req.segmentKey };
        const current = await ConstraintModel.query(trx).findOne(where);
        if (current === undefined) throw constraintNotFound(req.id);
        const before = toConstraint(current);
        const patch = {
          type: req.type,
          property: req.property,
          operator: req.operator,
          value: req.value,
          description: req.description,
          updated_at: at,
        };
        await ConstraintModel.query(trx).where(where).patch(patch);
        return updated(constraintSubject(req.segmentKey, req.id), before, toConstraint(Object.assign(current, patch)));
      },
      { ifNamespaceMissing: () => constraintNotFound(req.id) },
    );
  }

  delete(namespaceKey: string, segmentKey: string, id: string): Promise<void> {
    const ns = nsOf(namespaceKey);
    return this.tx.remove(ns, async (trx) => {
      const where = { id, namespace_key: ns, segment_key: segmentKey };
      const row = await ConstraintModel.query(trx).findOne(where);
      if (row === undefined) return undefined;
      await ConstraintModel.query(trx).where(where).delete();
      return deleted(constraintSubject(segmentKey, id), toConstraint(row));
    });
  }
}
