import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Actor, CreateSchedule, Flag, FlagSchedule } from '@ensign/core';
import { conflict, notFound } from '@ensign/core';
import type { ChangeDraft } from '../change-draft.js';
import { created, updated } from '../change-draft.js';
import { createdByColumns, createdByOf } from '../flag-steps.js';
import { loadFlag } from '../loaders/flag.loader.js';
import { FlagModel } from '../models/flag.model.js';
import { FlagStepModel } from '../models/flag-step.model.js';
import { touchesFlag } from '../snapshot-effect.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const BY_TIME = [{ column: 'at' }, { column: 'created_at' }, { column: 'id' }];

/** A step is recorded as taken late when it is applied this long after its time (a control plane was down). */
const LATE_AFTER_MS = 5_000;

/** A schedule row as the wire reports it. */
export function toSchedule(row: FlagStepModel): FlagSchedule {
  const createdBy = createdByOf(row);
  return {
    id: row.id,
    namespaceKey: row.namespace_key,
    flagKey: row.flag_key,
    at: row.at,
    enabled: !!row.enabled,
    status: row.status,
    createdAt: row.created_at,
    ...(row.applied_at === null ? {} : { appliedAt: row.applied_at }),
    ...(createdBy === undefined ? {} : { createdBy }),
  };
}

/** A step due to be taken: what `apply` needs of it. */
export interface DueStep {
  id: string;
  namespaceKey: string;
  flagKey: string;
  at: string;
}

const scheduleSubject = (flagKey: string, id: string) => ({ resource: 'schedule' as const, key: id, parentKey: flagKey, touched: touchesFlag(flagKey) });

/** The actor of a step taking effect: the step, naming who set it up. */
function stepActor(row: FlagStepModel): Actor {
  const by = createdByOf(row);
  const who = by?.name ?? by?.authenticationId;
  return { authenticationId: row.id, method: 'METHOD_SCHEDULE', name: who ? `schedule set by ${who}` : 'schedule' };
}

/** What a step did, as its change record's `after` carries it beside the flag. */
function stepAccount(row: FlagStepModel, appliedAt: string): Record<string, unknown> {
  const lateByMs = Date.parse(appliedAt) - Date.parse(row.at);
  const createdBy = createdByOf(row);
  return {
    id: row.id,
    kind: row.kind,
    at: row.at,
    appliedAt,
    ...(row.kind === 'schedule' ? { enabled: !!row.enabled } : {}),
    ...(row.detail === null ? {} : (JSON.parse(row.detail) as Record<string, unknown>)),
    ...(row.ref_id === '' ? {} : { refId: row.ref_id }),
    ...(lateByMs > LATE_AFTER_MS ? { missed: true, lateByMs } : {}),
    ...(createdBy === undefined ? {} : { scheduledBy: createdBy }),
  };
}

/**
 * A flag's scheduled changes, and every step (schedule, window edge, ramp step) taken when its
 * time comes: each in its own write, claimed so that it is taken once whichever control plane runs it.
 */
export class KnexScheduleRepository {
  constructor(private readonly tx: Transactor) {}

  /** A flag's schedules by time; NotFound when there is no such flag. */
  list(namespaceKey: string, flagKey: string): Promise<FlagSchedule[]> {
    const ns = nsOf(namespaceKey);
    return this.tx.read(async (db) => {
      if ((await FlagModel.query(db).findById([ns, flagKey])) === undefined) throw notFound(`flag "${ns}/${flagKey}" not found`);
      const rows = await FlagStepModel.query(db).where({ namespace_key: ns, flag_key: flagKey, kind: 'schedule' }).orderBy(BY_TIME);
      return rows.map(toSchedule);
    });
  }

  create(req: CreateSchedule): Promise<FlagSchedule> {
    const ns = nsOf(req.namespaceKey);
    const flagMissing = () => notFound(`flag "${ns}/${req.flagKey}" not found`);
    return this.tx.write(
      ns,
      async (trx, at) => {
        if ((await FlagModel.query(trx).findById([ns, req.flagKey])) === undefined) throw flagMissing();
        const id = randomUUID();
        await trx('flag_steps').insert({
          id,
          namespace_key: ns,
          flag_key: req.flagKey,
          at: req.at,
          kind: 'schedule',
          ref_id: '',
          enabled: req.enabled,
          detail: null,
          status: 'pending',
          ...createdByColumns(this.tx.actor()),
          created_at: at,
          applied_at: null,
        });
        return created(scheduleSubject(req.flagKey, id), toSchedule(await mustLoad(trx, ns, req.flagKey, id)));
      },
      { ifNamespaceMissing: flagMissing },
    );
  }

  /** Cancels a pending schedule; one already applied or cancelled is a conflict. */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<FlagSchedule> {
    const ns = nsOf(namespaceKey);
    return this.tx.write(
      ns,
      async (trx) => {
        const row = await mustLoad(trx, ns, flagKey, id);
        if (row.status !== 'pending') throw conflict(`schedule "${id}" of flag "${ns}/${flagKey}" is ${row.status}, not pending`);
        await trx('flag_steps').where({ id, status: 'pending' }).update({ status: 'cancelled' });
        return updated(scheduleSubject(flagKey, id), toSchedule(row), toSchedule(await mustLoad(trx, ns, flagKey, id)));
      },
      { ifNamespaceMissing: () => notFound(`schedule "${id}" not found`) },
    );
  }

  /** Steps whose time has come by `now` (ISO), oldest first, at most `limit`. */
  due(now: string, limit = 100): Promise<DueStep[]> {
    return this.tx.read(async (db) => {
      const rows = (await db('flag_steps')
        .select('id', 'namespace_key', 'flag_key', 'at')
        .where('status', 'pending')
        .where('at', '<=', now)
        .orderBy(BY_TIME)
        .limit(limit)) as Array<{ id: string; namespace_key: string; flag_key: string; at: string }>;
      return rows.map((r) => ({ id: r.id, namespaceKey: r.namespace_key, flagKey: r.flag_key, at: r.at }));
    });
  }

  /** The time of the next pending step (ISO), or undefined when none is pending. */
  nextAt(): Promise<string | undefined> {
    return this.tx.read(async (db) => {
      const row = (await db('flag_steps').where('status', 'pending').min({ at: 'at' }).first()) as { at: string | null } | undefined;
      return row?.at ?? undefined;
    });
  }

  /**
   * Takes one due step in its own write: claimed (pending → applied), a schedule sets the flag's
   * state, and the change is recorded as `stepped` on the flag, made by the step. False when
   * another process took it first, or it was cancelled meanwhile.
   */
  async apply(step: DueStep): Promise<boolean> {
    const row = await this.tx.read((db) => FlagStepModel.query(db).findById(step.id));
    if (row === undefined || row.status !== 'pending') return false;
    return this.tx.claim(step.namespaceKey, async (trx, at) => {
      const claimed = await trx('flag_steps').where({ id: step.id, status: 'pending' }).update({ status: 'applied', applied_at: at });
      if (claimed === 0) return undefined;
      const before = await loadFlag(trx, row.namespace_key, row.flag_key, 'get');
      if (before === undefined) return undefined;
      if (row.kind === 'schedule') {
        await FlagModel.query(trx).findById([row.namespace_key, row.flag_key]).patch({ enabled: !!row.enabled, updated_at: at });
      }
      const after = (await loadFlag(trx, row.namespace_key, row.flag_key, 'get')) as Flag;
      const change: ChangeDraft = {
        resource: 'flag',
        key: row.flag_key,
        touched: touchesFlag(row.flag_key),
        action: 'stepped',
        before,
        after: { ...after, step: stepAccount(row, at) },
      };
      return change;
    }, stepActor(row));
  }
}

async function mustLoad(db: Knex, ns: string, flagKey: string, id: string): Promise<FlagStepModel> {
  const row = await FlagStepModel.query(db).findOne({ id, namespace_key: ns, flag_key: flagKey, kind: 'schedule' });
  if (row === undefined) throw notFound(`schedule "${id}" not found`);
  return row;
}
