import type { CreateSegment, Page, PageRequest, Segment, UpdateSegment } from '@ensign/core';
import { invalid, notFound } from '@ensign/core';
import type { Knex } from 'knex';
import { created, deleted, updated } from '../change-draft.js';
import { segmentSubject, unusedSegmentSubject } from '../change-subjects.js';
import { loadSegment, toSegment, withConstraints } from '../loaders/segment.loader.js';
import { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { SegmentModel } from '../models/segment.model.js';
import { applyWindow, fetchPage } from '../paging.js';
import { countRows, nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const segmentNotFound = (ns: string, key: string) => notFound(`segment "${ns}/${key}" not found`);
const inUse = (ns: string, key: string) => invalid(`segment "${ns}/${key}" is in use`);

async function mustLoad(db: Knex, ns: string, key: string): Promise<Segment> {
  const segment = await loadSegment(db, ns, key);
  if (segment === undefined) throw segmentNotFound(ns, key);
  return segment;
}

async function isReferenced(db: Knex, ns: string, key: string): Promise<boolean> {
  const where = { namespace_key: ns, segment_key: key };
  return (
    (await RuleSegmentModel.query(db).findOne(where)) !== undefined ||
    (await RolloutSegmentReferenceModel.query(db).findOne(where)) !== undefined
  );
}

/** Segments with their constraints; one still used by a rule or rollout cannot be deleted. */
export class KnexSegmentRepository {
  constructor(private readonly tx: Transactor) {}

  list(namespaceKey: string, page: PageRequest): Promise<Page<Segment>> {
    const ns = nsOf(namespaceKey);
    return this.tx.read((db) =>
      fetchPage(
        page,
        (limit, offset) =>
          applyWindow(
            SegmentModel.query(db).where('namespace_key', ns).orderBy([{ column: 'created_at' }, { column: 'key' }]),
            limit,
            offset,
          ),
        () => countRows(db, 'segments', { namespace_key: ns }),
        (rows) => withConstraints(db, ns, rows),
      ),
    );
  }

  get(namespaceKey: string, key: string): Promise<Segment> {
    return this.tx.read((db) => mustLoad(db, nsOf(namespaceKey), key));
  }

  create(req: CreateSegment): Promise<Segment> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const row = {
          namespace_key: ns,
          key: req.key,
          name: req.name,
          description: req.description,
          match_type: req.matchType,
          created_at: at,
          updated_at: at,
        };
        // A new segment has no constraints yet, and no rule or rollout uses it.
        return { ...created(unusedSegmentSubject(req.key), toSegment(row as SegmentModel, [])), lastWrites: [trx('segments').insert(row)] };
      },
      {
        ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`),
        hints: { notUnique: () => invalid(`segment "${ns}/${req.key}" is not unique`) },
      },
    );
  }

  update(req: UpdateSegment): Promise<Segment> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const before = await mustLoad(trx, ns, req.key);
        await SegmentModel.query(trx)
          .findById([ns, req.key])
          .patch({ name: req.name, description: req.description, match_type: req.matchType, updated_at: at });
        return updated(segmentSubject(req.key), before, await mustLoad(trx, ns, req.key));
      },
      { ifNamespaceMissing: () => segmentNotFound(ns, req.key) },
    );
  }

  delete(namespaceKey: string, key: string): Promise<void> {
    const ns = nsOf(namespaceKey);
    return this.tx.remove(
      ns,
      async (trx) => {
        if (await isReferenced(trx, ns, key)) throw inUse(ns, key);
        const before = await loadSegment(trx, ns, key);
        if (before === undefined) return undefined;
        await SegmentModel.query(trx).deleteById([ns, key]);
        return deleted(unusedSegmentSubject(key), before);
      },
      // The RESTRICT foreign keys still refuse a reference added by a concurrent writer.
      { foreignKey: () => inUse(ns, key) },
    );
  }
}
