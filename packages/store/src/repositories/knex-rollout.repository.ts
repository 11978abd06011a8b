import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  CreateRollout,
  OrderItems,
  Page,
  PageRequest,
  Rollout,
  RolloutSegmentInput,
  RolloutType,
  UpdateRollout,
} from '@ensign/core';
import { checkRamp, checkWindow, invalid, invalidField, mergeWindow, notFound } from '@ensign/core';
import { created, updated } from '../change-draft.js';
import { partStepWrites, replacePartSteps } from '../flag-steps.js';
import { rampColumn, windowColumns } from '../loaders/window.js';
import { flagPartSubject } from '../change-subjects.js';
import { loadRollout, toRollout, withRolloutRules } from '../loaders/rollout.loader.js';
import { FlagModel } from '../models/flag.model.js';
import { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import { RolloutSegmentModel } from '../models/rollout-segment.model.js';
import { RolloutThresholdModel } from '../models/rollout-threshold.model.js';
import { RolloutModel } from '../models/rollout.model.js';
import { applyWindow, fetchPage } from '../paging.js';
import { BY_RANK, deleteRanked, orderOnFlag, ROLLOUTS } from '../ranking.js';
import { firstMissingSegment, requestedSegmentKeys } from '../segment-keys.js';
import { countRows, nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const rolloutNotFound = (ns: string, id: string) => notFound(`rollout "${ns}/${id}" not found`);
const flagNotFound = (ns: string, flagKey: string) => notFound(`flag "${ns}/${flagKey}" not found`);
// COMPAT(flipt): the quotes sit where Flipt puts them (internal/storage/sql/common/rollout.go).
const flagOrSegmentNotFound = (ns: string, flagKey: string, segmentKey: string) =>
  notFound(`flag "${ns}/${flagKey} or segment ${segmentKey}" not found`);

interface RolloutRule {
  segment: RolloutSegmentInput | undefined;
  threshold: unknown;
}

function kindOf(req: RolloutRule): RolloutType | undefined {
  if (req.segment !== undefined) return 'SEGMENT_ROLLOUT_TYPE';
  return req.threshold === undefined ? undefined : 'THRESHOLD_ROLLOUT_TYPE';
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

/** The stored threshold and segment rule of a rollout as read, so an update that rewrites one keeps the other as stored. */
const rulesOf = (rollout: Rollout): { threshold: RolloutThresholdModel | undefined; segment: RolloutSegmentModel | undefined } => ({
  threshold:
    rollout.threshold === undefined
      ? undefined
      : ({ rollout_id: rollout.id, percentage: rollout.threshold.percentage, value: rollout.threshold.value, ramp: rampColumn(rollout.threshold.ramp ?? []) } as RolloutThresholdModel),
  segment:
    rollout.segment === undefined ? undefined : ({ rollout_id: rollout.id, segment_operator: rollout.segment.segmentOperator, value: rollout.segment.value } as RolloutSegmentModel),
});

async function mustLoad(db: Knex, ns: string, flagKey: string, id: string): Promise<Rollout> {
  const rollout = await loadRollout(db, ns, flagKey, id);
  if (rollout === undefined) throw rolloutNotFound(ns, id);
  return rollout;
}

/** Writes the segment rule of a new rollout, or of one whose old rule was removed; every segment must exist. */
async function writeSegmentRule(
  trx: Knex.Transaction,
  ns: string,
  flagKey: string,
  rolloutId: string,
  input: RolloutSegmentInput,
): Promise<void> {
  const keys = requestedSegmentKeys(input);
  const missing = await firstMissingSegment(trx, ns, keys);
  if (missing !== undefined) throw flagOrSegmentNotFound(ns, flagKey, missing);
  const operator = keys.length === 1 ? 'OR_SEGMENT_OPERATOR' : input.segmentOperator;
  await RolloutSegmentModel.query(trx).insert({ rollout_id: rolloutId, segment_operator: operator, value: input.value });
  for (const [position, segmentKey] of keys.entries()) {
    await RolloutSegmentReferenceModel.query(trx).insert({
      rollout_id: rolloutId,
      namespace_key: ns,
      segment_key: segmentKey,
      position,
    });
  }
}

/** Rollouts of boolean flags: a segment rule or a percentage threshold, ranked. */
export class KnexRolloutRepository {
  constructor(private readonly tx: Transactor) {}

  list(namespaceKey: string, flagKey: string, page: PageRequest): Promise<Page<Rollout>> {
    const ns = nsOf(namespaceKey);
    const where = { namespace_key: ns, flag_key: flagKey };
    return this.tx.read((db) =>
      fetchPage(
        page,
        (limit, offset) =>
          applyWindow(
            RolloutModel.query(db).where(where).orderBy(BY_RANK),
            limit,
            offset,
          ),
        () => countRows(db, 'rollouts', where),
        (rows) => withRolloutRules(db, rows),
      ),
    );
  }

  get(namespaceKey: string, flagKey: string, id: string): Promise<Rollout> {
    return this.tx.read((db) => mustLoad(db, nsOf(namespaceKey), flagKey, id));
  }

  create(req: CreateRollout): Promise<Rollout> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const type = kindOf(req);
        if (type === undefined) throw invalid('rollout rule is missing');
        const flag = await FlagModel.query(trx).findById([ns, req.flagKey]);
        if (flag === undefined) {
          if (req.segment === undefined) throw flagNotFound(ns, req.flagKey);
          const keys = requestedSegmentKeys(req.segment);
          throw flagOrSegmentNotFound(ns, req.flagKey, (await firstMissingSegment(trx, ns, keys)) ?? keys[0] ?? '');
        }
        if (flag.type !== 'BOOLEAN_FLAG_TYPE') throw invalid(`flag "${ns}/${req.flagKey}" is not a boolean flag`);
        // Checked here rather than by a unique index: re-ordering swaps ranks row by row.
        const sameRank = await RolloutModel.query(trx).findOne({ namespace_key: ns, flag_key: req.flagKey, rank: req.rank });
        if (sameRank !== undefined) throw invalid(`rank number: ${req.rank} already exists`);
        const id = randomUUID();
        const window = mergeWindow({}, req);
        const ramp = req.threshold?.ramp ?? [];
        await RolloutModel.query(trx).insert({
          id,
          namespace_key: ns,
          flag_key: req.flagKey,
          type,
          rank: req.rank,
          description: req.description,
          ...windowColumns(window),
          created_at: at,
          updated_at: at,
        });
        if (req.segment !== undefined) await writeSegmentRule(trx, ns, req.flagKey, id, req.segment);
        else if (req.threshold !== undefined) {
          const { percentage, value } = req.threshold;
          await RolloutThresholdModel.query(trx).insert({ rollout_id: id, percentage, value, ramp: rampColumn(ramp) });
        }
        await replacePartSteps(trx, { namespaceKey: ns, flagKey: req.flagKey, id, noun: 'rollout', window, ramp }, at, this.tx.actor());
        return created(flagPartSubject('rollout', req.flagKey, id), await mustLoad(trx, ns, req.flagKey, id));
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`) },
    );
  }

  /**
   * Reads the flag's state with the revision bump; a new threshold, or a segment rule on the same
   * segments, leaves a state it knows, so on PostgreSQL such an update is four round trips.
   */
  update(req: UpdateRollout): Promise<Rollout> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const current = read?.state.rollouts.find((r) => r.id === req.id);
        if (read === undefined || current === undefined) throw rolloutNotFound(ns, req.id);
        const attempted = kindOf(req);
        if (attempted === undefined) throw invalidField('rule', 'invalid rollout rule type');
        if (attempted !== current.type) {
          throw invalid(`cannot change type of rollout: have "${current.type}" attempted "${attempted}"`);
        }
        const { segmentKeysInOrder, ...before } = current;
        const window = mergeWindow(before, req);
        checkWindow(window);
        // An unsent ramp stays as stored, and must still rise from the new percentage.
        const ramp = req.threshold === undefined ? undefined : (req.threshold.ramp ?? before.threshold?.ramp ?? []);
        if (req.threshold !== undefined && ramp !== undefined) checkRamp({ ...req.threshold, ramp });
        const row = {
          id: req.id,
          namespace_key: ns,
          flag_key: req.flagKey,
          type: current.type,
          rank: current.rank,
          description: req.description,
          ...windowColumns(window),
          created_at: current.createdAt,
          updated_at: at,
        };
        const writes = [trx('rollouts').where({ id: req.id, namespace_key: ns, flag_key: req.flagKey }).update({ description: req.description, ...windowColumns(window), updated_at: at })];
        let { threshold, segment } = rulesOf(before);
        let keys = segmentKeysInOrder;
        if (req.segment !== undefined) {
          keys = requestedSegmentKeys(req.segment);
          segment = { rollout_id: req.id, segment_operator: keys.length === 1 ? 'OR_SEGMENT_OPERATOR' : req.segment.segmentOperator, value: req.segment.value } as RolloutSegmentModel;
          if (sameKeys(keys, segmentKeysInOrder)) {
            writes.push(trx('rollout_segments').where({ rollout_id: req.id }).update({ segment_operator: segment.segment_operator, value: segment.value }));
          } else {
            // The references go with the rule (ON DELETE CASCADE).
            await RolloutSegmentModel.query(trx).where({ rollout_id: req.id }).delete();
            await writeSegmentRule(trx, ns, req.flagKey, req.id, req.segment);
          }
        } else if (req.threshold !== undefined) {
          threshold = { rollout_id: req.id, percentage: req.threshold.percentage, value: req.threshold.value, ramp: rampColumn(ramp ?? []) } as RolloutThresholdModel;
          writes.push(trx('rollout_thresholds').where({ rollout_id: req.id }).update({ percentage: threshold.percentage, value: threshold.value, ramp: threshold.ramp }));
        }
        writes.push(...partStepWrites(trx, { namespaceKey: ns, flagKey: req.flagKey, id: req.id, noun: 'rollout', window, ramp }, at, this.tx.actor()));
        const after = toRollout(row as RolloutModel, threshold, segment, keys);
        // The flag's segments stay those it had while the rollout keeps its segments.
        const known = sameKeys(keys, segmentKeysInOrder)
          ? { ...read, state: { ...read.state, rollouts: read.state.rollouts.map((r) => (r.id === req.id ? { ...after, segmentKeysInOrder: keys } : r)) } }
          : undefined;
        return {
          ...updated(flagPartSubject('rollout', req.flagKey, req.id), before, after),
          ...(known === undefined ? {} : { known }),
          lastWrites: writes,
        };
      },
      { ifNamespaceMissing: () => rolloutNotFound(ns, req.id), readFirst: { keys: [req.flagKey] } },
    );
  }

  order(req: OrderItems): Promise<void> {
    return orderOnFlag(this.tx, ROLLOUTS, req);
  }

  delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    return deleteRanked(this.tx, ROLLOUTS, namespaceKey, flagKey, id);
  }
}
