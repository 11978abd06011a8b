import type { Knex } from 'knex';
import type { RampStep, Rollout } from '@ensign/core';
import { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import { RolloutSegmentModel } from '../models/rollout-segment.model.js';
import { RolloutThresholdModel } from '../models/rollout-threshold.model.js';
import { RolloutModel } from '../models/rollout.model.js';
import { presentSegmentKeys } from '../segment-keys.js';
import { groupBy, inChunks } from '../sql-util.js';
import { windowOf } from './window.js';

/** A rollout row as the wire reports it, given its threshold or its segment rule and segment keys in order. */
export function toRollout(
  row: RolloutModel,
  threshold: RolloutThresholdModel | undefined,
  segment: RolloutSegmentModel | undefined,
  segmentKeys: readonly string[],
): Rollout {
  const rollout: Rollout = {
    id: row.id,
    namespaceKey: row.namespace_key,
    flagKey: row.flag_key,
    type: row.type,
    rank: Number(row.rank),
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...windowOf(row),
  };
  if (threshold !== undefined) {
    rollout.threshold = { percentage: Number(threshold.percentage), value: !!threshold.value };
    if (threshold.ramp !== null) rollout.threshold.ramp = JSON.parse(threshold.ramp) as RampStep[];
  }
  if (segment !== undefined) {
    rollout.segment = {
      ...presentSegmentKeys(segmentKeys),
      segmentOperator: segment.segment_operator,
      value: !!segment.value,
    };
  }
  return rollout;
}

/** Rollouts with their threshold or segment rule. */
export async function withRolloutRules(db: Knex, rows: RolloutModel[]): Promise<Rollout[]> {
  const ids = rows.map((r) => r.id);
  const thresholds = await inChunks(ids, (chunk) => RolloutThresholdModel.query(db).whereIn('rollout_id', chunk));
  const segments = await inChunks(ids, (chunk) => RolloutSegmentModel.query(db).whereIn('rollout_id', chunk));
  const references = await inChunks(ids, (chunk) =>
    RolloutSegmentReferenceModel.query(db)
      .whereIn('rollout_id', chunk)
      .orderBy([{ column: 'rollout_id' }, { column: 'position' }]),
  );
  const thresholdById = new Map(thresholds.map((t) => [t.rollout_id, t]));
  const segmentById = new Map(segments.map((s) => [s.rollout_id, s]));
  const referencesById = groupBy(references, (r) => r.rollout_id);

  return rows.map((row) =>
    toRollout(
      row,
      thresholdById.get(row.id),
      segmentById.get(row.id),
      (referencesById.get(row.id) ?? []).map((r) => r.segment_key),
    ),
  );
}

/** One rollout of a flag, or undefined. */
export async function loadRollout(db: Knex, namespaceKey: string, flagKey: string, id: string): Promise<Rollout | undefined> {
  const row = await RolloutModel.query(db).findOne({ id, namespace_key: namespaceKey, flag_key: flagKey });
  if (row === undefined) return undefined;
  const [rollout] = await withRolloutRules(db, [row]);
  return rollout;
}
