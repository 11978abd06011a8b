/**
 * The pieces of a namespace's evaluation state, read either for the whole namespace or for some
 * flags (segments), so a snapshot and the part of it one write touched are built the same way.
 */
import type { Knex } from 'knex';
import type { Flag, Segment } from '@ensign/core';
import { ConstraintModel, toConstraint } from '../models/constraint.model.js';
import { DistributionModel, toDistribution } from '../models/distribution.model.js';
import { FlagModel } from '../models/flag.model.js';
import { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import { RolloutSegmentModel } from '../models/rollout-segment.model.js';
import { RolloutThresholdModel } from '../models/rollout-threshold.model.js';
import { RolloutModel } from '../models/rollout.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { RuleModel } from '../models/rule.model.js';
import { SegmentModel } from '../models/segment.model.js';
import { toVariant, VariantModel } from '../models/variant.model.js';
import { groupBy } from '../sql-util.js';
import type { NamespaceStateRollout, NamespaceStateRule, PendingSchedule } from '../types.js';
import { toFlag } from './flag.loader.js';
import { inScope, whereInKeys, type KeyScope } from './key-scope.js';
import { toRollout } from './rollout.loader.js';
import { toRule } from './rule.loader.js';
import { toSegment } from './segment.loader.js';

const BY_CREATION = [{ column: 'created_at' }, { column: 'key' }];
const BY_FLAG_THEN_RANK = [{ column: 'flag_key' }, { column: 'rank' }, { column: 'created_at' }, { column: 'id' }];

/** Segment keys of each rule or rollout, in request order. */
function keysByOwner<R>(rows: readonly R[], ownerOf: (row: R) => string, keyOf: (row: R) => string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [owner, group] of groupBy(rows, ownerOf)) out.set(owner, group.map(keyOf));
  return out;
}

/** Flags by creation, each with its variants (by creation) and `defaultVariant`. */
export async function readStateFlags(db: Knex, ns: string, flagKeys: KeyScope): Promise<Flag[]> {
  const rows = await inScope(flagKeys, (keys) =>
    FlagModel.query(db).where('namespace_key', ns).modify(whereInKeys('key', keys)).orderBy(BY_CREATION),
  );
  const variantRows = await inScope(flagKeys, (keys) =>
    VariantModel.query(db).where('namespace_key', ns).modify(whereInKeys('flag_key', keys)).orderBy(BY_CREATION),
  );
  return assembleFlags(rows, variantRows);
}

/** Flag rows (by creation) with their variant rows (by creation), as the state reports them. */
export function assembleFlags(rows: readonly FlagModel[], variantRows: readonly VariantModel[]): Flag[] {
  const variantsByFlag = groupBy(variantRows, (v) => v.flag_key);
  return rows.map((row) => toFlag(row, (variantsByFlag.get(row.key) ?? []).map(toVariant), 'get'));
}

/** Segments by creation, each with its constraints (by creation). */
export async function readStateSegments(db: Knex, ns: string, segmentKeys: KeyScope): Promise<Segment[]> {
  const rows = await inScope(segmentKeys, (keys) =>
    SegmentModel.query(db).where('namespace_key', ns).modify(whereInKeys('key', keys)).orderBy(BY_CREATION),
  );
  const constraintRows = await inScope(segmentKeys, (keys) =>
    ConstraintModel.query(db)
      .where('namespace_key', ns)
      .modify(whereInKeys('segment_key', keys))
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
  );
  return assembleSegments(rows, constraintRows);
}

/** Segment rows (by creation) with their constraint rows (by creation), as the state reports them. */
export function assembleSegments(rows: readonly SegmentModel[], constraintRows: readonly ConstraintModel[]): Segment[] {
  const constraintsBySegment = groupBy(constraintRows, (c) => c.segment_key);
  return rows.map((row) => toSegment(row, (constraintsBySegment.get(row.key) ?? []).map(toConstraint)));
}

/** The query surface `ofOwner` needs, whichever model the query is on. */
interface JoinableQuery {
  join(table: string, left: string, right: string): unknown;
  where(column: string, value: string): unknown;
  whereIn(column: string, values: readonly string[]): unknown;
}

/** Keeps the rows whose owning rule (rollout), joined on `ownerColumn`, is in the namespace and among the flags. */
const ofOwner =
  (owner: 'rules' | 'rollouts', ownerColumn: string, ns: string, flagKeys: string[] | undefined) =>
  (query: JoinableQuery): void => {
    query.join(owner, `${owner}.id`, ownerColumn);
    query.where(`${owner}.namespace_key`, ns);
    if (flagKeys !== undefined) query.whereIn(`${owner}.flag_key`, flagKeys);
  };

/** Rules by flag key then rank, with their segment keys in request order and distributions by creation. */
export async function readStateRules(db: Knex, ns: string, flagKeys: KeyScope): Promise<NamespaceStateRule[]> {
  const rows = await inScope(flagKeys, (keys) =>
    RuleModel.query(db).where('namespace_key', ns).modify(whereInKeys('flag_key', keys)).orderBy(BY_FLAG_THEN_RANK),
  );
  const segmentRows = await inScope(flagKeys, (keys) =>
    RuleSegmentModel.query(db)
      .select('rule_segments.*')
      .modify(ofOwner('rules', 'rule_segments.rule_id', ns, keys))
      .orderBy([{ column: 'rule_segments.rule_id' }, { column: 'rule_segments.position' }]),
  );
  const distributionRows = await inScope(flagKeys, (keys) =>
    DistributionModel.query(db)
      .select('distributions.*')
      .modify(ofOwner('rules', 'distributions.rule_id', ns, keys))
      .orderBy([{ column: 'distributions.created_at' }, { column: 'distributions.id' }]),
  );
  return assembleRules(rows, segmentRows, distributionRows);
}

/** Rule rows (by flag then rank) with their segment rows (by position) and distribution rows (by creation). */
export function assembleRules(
  rows: readonly RuleModel[],
  segmentRows: readonly RuleSegmentModel[],
  distributionRows: readonly DistributionModel[],
): NamespaceStateRule[] {
  const segmentKeys = keysByOwner(segmentRows, (s) => s.rule_id, (s) => s.segment_key);
  const distributions = groupBy(distributionRows, (d) => d.rule_id);
  return rows.map((row) => {
    const segmentKeysInOrder = segmentKeys.get(row.id) ?? [];
    const rule = toRule(row, segmentKeysInOrder, (distributions.get(row.id) ?? []).map(toDistribution));
    return { ...rule, segmentKeysInOrder };
  });
}

/** Rollouts by flag key then rank, with their threshold or segment rule and segment keys in request order. */
export async function readStateRollouts(db: Knex, ns: string, flagKeys: KeyScope): Promise<NamespaceStateRollout[]> {
  const rows = await inScope(flagKeys, (keys) =>
    RolloutModel.query(db).where('namespace_key', ns).modify(whereInKeys('flag_key', keys)).orderBy(BY_FLAG_THEN_RANK),
  );
  const thresholds = await inScope(flagKeys, (keys) =>
    RolloutThresholdModel.query(db)
      .select('rollout_thresholds.*')
      .modify(ofOwner('rollouts', 'rollout_thresholds.rollout_id', ns, keys)),
  );
  const segments = await inScope(flagKeys, (keys) =>
    RolloutSegmentModel.query(db)
      .select('rollout_segments.*')
      .modify(ofOwner('rollouts', 'rollout_segments.rollout_id', ns, keys)),
  );
  const references = await inScope(flagKeys, (keys) =>
    RolloutSegmentReferenceModel.query(db)
      .select('rollout_segment_references.*')
      .modify(ofOwner('rollouts', 'rollout_segment_references.rollout_id', ns, keys))
      .orderBy([{ column: 'rollout_segment_references.rollout_id' }, { column: 'rollout_segment_references.position' }]),
  );
  return assembleRollouts(rows, thresholds, segments, references);
}

/** Rollout rows (by flag then rank) with their threshold, segment rule and segment reference rows (by position). */
export function assembleRollouts(
  rows: readonly RolloutModel[],
  thresholds: readonly RolloutThresholdModel[],
  segments: readonly RolloutSegmentModel[],
  references: readonly RolloutSegmentReferenceModel[],
): NamespaceStateRollout[] {
  const thresholdById = new Map(thresholds.map((t) => [t.rollout_id, t]));
  const segmentById = new Map(segments.map((s) => [s.rollout_id, s]));
  const segmentKeys = keysByOwner(references, (r) => r.rollout_id, (r) => r.segment_key);
  return rows.map((row) => {
    const segmentKeysInOrder = segmentKeys.get(row.id) ?? [];
    const rollout = toRollout(row, thresholdById.get(row.id), segmentById.get(row.id), segmentKeysInOrder);
    return { ...rollout, segmentKeysInOrder };
  });
}

/** Pending schedules of the flags, by time. */
export async function readStateSchedules(db: Knex, ns: string, flagKeys: KeyScope): Promise<PendingSchedule[]> {
  const rows = (await inScope(flagKeys, (keys) =>
    db('flag_steps')
      .select('flag_key', 'at', 'enabled')
      .where({ namespace_key: ns, kind: 'schedule', status: 'pending' })
      .modify(whereInKeys('flag_key', keys))
      .orderBy([{ column: 'at' }, { column: 'created_at' }, { column: 'id' }]),
  )) as ScheduleRow[];
  return assembleSchedules(rows);
}

/** A pending schedule's row. */
export interface ScheduleRow {
  flag_key: string;
  at: string;
  enabled: boolean | number;
}

/** Schedule rows (by time) as the state reports them. */
export const assembleSchedules = (rows: readonly ScheduleRow[]): PendingSchedule[] =>
  rows.map((r) => ({ flagKey: r.flag_key, at: r.at, enabled: !!r.enabled }));
