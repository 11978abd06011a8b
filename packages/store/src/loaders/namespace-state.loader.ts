import type { Knex } from 'knex';
import { ConstraintModel, toConstraint } from '../models/constraint.model.js';
import { DistributionModel, toDistribution } from '../models/distribution.model.js';
import { FlagModel } from '../models/flag.model.js';
import { NamespaceModel, toNamespace } from '../models/namespace.model.js';
import { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import { RolloutSegmentModel } from '../models/rollout-segment.model.js';
import { RolloutThresholdModel } from '../models/rollout-threshold.model.js';
import { RolloutModel } from '../models/rollout.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { RuleModel } from '../models/rule.model.js';
import { SegmentModel } from '../models/segment.model.js';
import { toVariant, VariantModel } from '../models/variant.model.js';
import { groupBy } from '../sql-util.js';
import type { NamespaceRevision, NamespaceState, NamespaceStateRollout, NamespaceStateRule } from '../types.js';
import { toFlag } from './flag.loader.js';
import { toRollout } from './rollout.loader.js';
import { toRule } from './rule.loader.js';
import { toSegment } from './segment.loader.js';

const BY_FLAG_THEN_RANK = [{ column: 'flag_key' }, { column: 'rank' }, { column: 'created_at' }, { column: 'id' }];

/** Segment keys of each rule or rollout, in request order. */
function keysByOwner<R>(rows: R[], ownerOf: (row: R) => string, keyOf: (row: R) => string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [owner, group] of groupBy(rows, ownerOf)) out.set(owner, group.map(keyOf));
  return out;
}

async function readRules(db: Knex, ns: string): Promise<NamespaceStateRule[]> {
  const rows = await RuleModel.query(db).where('namespace_key', ns).orderBy(BY_FLAG_THEN_RANK);
  const segmentRows = await RuleSegmentModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'rule_id' }, { column: 'position' }]);
  const distributionRows = await DistributionModel.query(db)
    .select('distributions.*')
    .join('rules', 'rules.id', 'distributions.rule_id')
    .where('rules.namespace_key', ns)
    .orderBy([{ column: 'distributions.created_at' }, { column: 'distributions.id' }]);
  const keys = keysByOwner(segmentRows, (s) => s.rule_id, (s) => s.segment_key);
  const distributions = groupBy(distributionRows, (d) => d.rule_id);
  return rows.map((row) => {
    const segmentKeysInOrder = keys.get(row.id) ?? [];
    const rule = toRule(row, segmentKeysInOrder, (distributions.get(row.id) ?? []).map(toDistribution));
    return { ...rule, segmentKeysInOrder };
  });
}

async function readRollouts(db: Knex, ns: string): Promise<NamespaceStateRollout[]> {
  const rows = await RolloutModel.query(db).where('namespace_key', ns).orderBy(BY_FLAG_THEN_RANK);
  const thresholds = await RolloutThresholdModel.query(db)
    .select('rollout_thresholds.*')
    .join('rollouts', 'rollouts.id', 'rollout_thresholds.rollout_id')
    .where('rollouts.namespace_key', ns);
  const segments = await RolloutSegmentModel.query(db)
    .select('rollout_segments.*')
    .join('rollouts', 'rollouts.id', 'rollout_segments.rollout_id')
    .where('rollouts.namespace_key', ns);
  const references = await RolloutSegmentReferenceModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'rollout_id' }, { column: 'position' }]);
  const thresholdById = new Map(thresholds.map((t) => [t.rollout_id, t]));
  const segmentById = new Map(segments.map((s) => [s.rollout_id, s]));
  const keys = keysByOwner(references, (r) => r.rollout_id, (r) => r.segment_key);
  return rows.map((row) => {
    const segmentKeysInOrder = keys.get(row.id) ?? [];
    const rollout = toRollout(row, thresholdById.get(row.id), segmentById.get(row.id), segmentKeysInOrder);
    return { ...rollout, segmentKeysInOrder };
  });
}

/**
 * A namespace's whole state, or undefined when it does not exist. A fixed number of queries
 * whatever its size; run it in a consistent-read transaction so the revision and rows agree.
 */
export async function readNamespaceState(db: Knex, ns: string): Promise<NamespaceState | undefined> {
  const namespace = await NamespaceModel.query(db).findById(ns);
  if (namespace === undefined) return undefined;

  const flagRows = await FlagModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'created_at' }, { column: 'key' }]);
  const variantRows = await VariantModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'created_at' }, { column: 'key' }]);
  const variantsByFlag = groupBy(variantRows, (v) => v.flag_key);
  const flags = flagRows.map((row) => toFlag(row, (variantsByFlag.get(row.key) ?? []).map(toVariant), 'get'));

  const segmentRows = await SegmentModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'created_at' }, { column: 'key' }]);
  const constraintRows = await ConstraintModel.query(db)
    .where('namespace_key', ns)
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  const constraintsBySegment = groupBy(constraintRows, (c) => c.segment_key);
  const segments = segmentRows.map((row) => toSegment(row, (constraintsBySegment.get(row.key) ?? []).map(toConstraint)));

  return {
    namespace: toNamespace(namespace),
    revision: Number(namespace.revision),
    flags,
    rules: await readRules(db, ns),
    rollouts: await readRollouts(db, ns),
    segments,
  };
}

/** Every namespace with its revision, by creation. */
export async function listNamespaceRevisions(db: Knex): Promise<NamespaceRevision[]> {
  const rows = (await db('namespaces')
    .select('key', 'revision')
    .orderBy([{ column: 'created_at' }, { column: 'key' }])) as Array<{ key: string; revision: number | string }>;
  return rows.map((r) => ({ key: r.key, revision: Number(r.revision) }));
}
