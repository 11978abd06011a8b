import type { Knex } from 'knex';
import { type Actor, type AppError, type ChangeRecord, type ChangeRequestRef, invalid, type TraceSpan, traced } from '@ensign/core';
import { adaptDbError, isRetryableDbError } from './adapt-db-error.js';
import { changeRecordInsert, insertChangeRecord } from './audit-log.js';
import type { DbErrorHints } from './adapt-db-error.js';
import { toRecord, type ChangeDraft, type Outcome } from './change-draft.js';
import type { CommitListeners } from './commit-listeners.js';
import type { FlagsRead } from './loaders/flags-state.loader.js';
import { bumpAndRead, bumpRevision, type FirstRead, readFirst } from './revision-bump.js';
import { readEffect } from './snapshot-effect.js';
import { sendTogether } from './sql-util.js';
import type { CommittedChange, Dialect, SnapshotEffect } from './types.js';
import { checkJoinable, currentBatch, type OpenBatch, readBatchEffect, runInBatch } from './write-batch.js';

/** A write's outcome and the namespace revision it committed at. */
export interface Written<T> extends Outcome<T> {
  namespaceKey: string;
  revision: number;
}

/** How many times in all a transaction or statement aborted by a deadlock, serialization failure or busy database is tried. */
const MAX_ATTEMPTS = 5;

/** How each engine opens a read that must see one point in time. */
const READ_CONFIG: Readonly<Record<Dialect, Knex.TransactionConfig>> = {
  sqlite: {},
  postgres: { isolationLevel: 'repeatable read', readOnly: true },
  // knex cannot combine an isolation level with READ ONLY on MySQL (it omits the comma).
  mysql: { isolationLevel: 'repeatable read' },
  cockroach: { readOnly: true },
};

/** Thrown inside a transaction to roll it back when a delete found nothing to delete. */
class NothingChanged extends Error {}

/** Thrown inside a trial's transaction to roll it back with what it found. */
class TrialDone extends Error {
  constructor(
    readonly value: unknown,
    readonly records: ChangeRecord[],
  ) {
    super('trial done');
  }
}

/**
 * Runs reads and writes against one database. Every write of flag state is one transaction that
 * bumps its namespace's revision and reads its change and snapshot effect before committing, and
 * answers once its commit listeners have heard of it; other records are written by `statement`.
 * Writes raced by another are run again; driver errors are translated at the edge.
 */
export class Transactor {
  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
    private readonly clock: () => Date,
    private readonly actorOf: () => Actor | undefined,
    private readonly listeners: CommitListeners,
  ) {}

  /** The current time as stored: UTC ISO-8601, so it orders and round-trips alike on every engine. */
  now(): string {
    return this.clock().toISOString();
  }

  /** Who is writing, as the request being served says (undefined when unauthenticated). */
  actor(): Actor | undefined {
    return this.actorOf();
  }

  /** A read outside any transaction, with driver errors translated. */
  async read<T>(work: (db: Knex) => PromiseLike<T>): Promise<T> {
    try {
      return await work(this.knex);
    } catch (err) {
      throw adaptDbError(this.dialect, err);
    }
  }

  /**
   * Reads in one transaction that sees a single point in time, so rows read by separate queries
   * agree with each other: REPEATABLE READ (snapshot isolation) on PostgreSQL and MySQL; SQLite's
   * and CockroachDB's transactions are already serializable.
   */
  async readConsistent<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const config = READ_CONFIG[this.dialect];
    return this.retrying(() => this.knex.transaction((trx) => work(trx), config));
  }

  /**
   * A write of records that are not flag state (authentications): no revision, no change record,
   * no commit listeners, but the same retry of raced statements and the same error translation as
   * every other write. `work` is one statement or its own transaction, so running it again is safe.
   */
  statement<T>(work: (db: Knex) => PromiseLike<T>, hints?: DbErrorHints): Promise<T> {
    return this.retrying(() => work(this.knex), hints);
  }

  /**
   * A write in an existing namespace. The revision bump runs first, so the namespace row stays
   * locked for the whole transaction and writes to one namespace apply one at a time. With
   * `readFirst`, `work` is handed those flags' state (or, `only: 'flags'`, their rows with their
   * variants and nothing else) as the bump left it, read with the bump in one statement on PostgreSQL.
   */
  async write<T>(
    namespaceKey: string,
    work: (trx: Knex.Transaction, at: string, read: FlagsRead | undefined) => Promise<Outcome<T>>,
    options: { ifNamespaceMissing: () => AppError; hints?: DbErrorHints; readFirst?: FirstRead },
  ): Promise<T> {
    const batch = currentBatch();
    if (batch !== undefined) {
      checkJoinable(batch, namespaceKey, undefined);
      let read: FlagsRead | undefined;
      if (batch.revision === undefined) {
        const bumped = await bumpAndRead(batch.trx, namespaceKey, batch.at, options.readFirst);
        if (bumped === undefined) throw options.ifNamespaceMissing();
        ({ revision: batch.revision, read } = bumped);
      } else if (options.readFirst !== undefined) {
        read = await readFirst(batch.trx, namespaceKey, options.readFirst);
      }
      try {
        const { value, change, lastWrites } = await work(batch.trx, batch.at, read);
        await sendTogether(batch.trx, lastWrites ?? []);
        batch.changes.push(change);
        return value;
      } catch (err) {
        // Translated here, with this write's hints; a raced batch stays raw so the batch runs again.
        if (isRetryableDbError(this.dialect, err)) throw err;
        throw adaptDbError(this.dialect, err, options.hints);
      }
    }
    return this.transact(async (trx, at) => {
      const bumped = await bumpAndRead(trx, namespaceKey, at, options.readFirst);
      if (bumped === undefined) throw options.ifNamespaceMissing();
      return { ...(await work(trx, at, bumped.read)), namespaceKey, revision: bumped.revision };
    }, options.hints);
  }

  /**
   * Runs `work` as `batch` would, then rolls everything back: what the writes would record (before
   * and after of each, as of now), with nothing written and nothing announced. How a proposed set of
   * changes is checked and shown before it is applied. A write that fails fails the trial.
   */
  async trial<T>(namespaceKey: string, work: () => Promise<T>, actor?: Actor): Promise<{ value: T; records: ChangeRecord[] }> {
    const by = actor ?? this.actorOf();
    const at = this.now();
    try {
      await this.retrying(() =>
        this.knex.transaction(async (trx) => {
          const batch: OpenBatch = { trx, namespaceKey, at, revision: undefined, changes: [] };
          const value = await runInBatch(batch, work);
          const records = batch.changes.map((draft) => toRecord(draft, namespaceKey, batch.revision ?? 0, at, by));
          throw new TrialDone(value, records);
        }),
      );
    } catch (err) {
      if (err instanceof TrialDone) return { value: err.value as T, records: err.records };
      throw err;
    }
    throw new Error('a trial always ends by rolling back');
  }

  /**
   * Runs `work`, whose writes through the repositories (all to `namespaceKey`) join one transaction
   * and commit as one revision, all or nothing: one change record per write, one snapshot effect
   * for all of them, announced once (`CommittedChange.batch` lists the records). A batch whose
   * writes changed nothing commits nothing. Run again whole when the database aborts it for a race.
   */
  async batch<T>(namespaceKey: string, work: () => Promise<T>, actor?: Actor, changeRequest?: ChangeRequestRef): Promise<{ value: T; revision: number | undefined }> {
    const by = actor ?? this.actorOf();
    const started = performance.now();
    const at = this.now();
    const committed = await this.retrying(() =>
      this.knex
        .transaction(async (trx) => {
          const batch: OpenBatch = { trx, namespaceKey, at, revision: undefined, changes: [] };
          const value = await runInBatch(batch, work);
          if (batch.revision === undefined || batch.changes.length === 0) throw new NothingChanged();
          const effect = await readBatchEffect(trx, namespaceKey, batch.changes);
          const records = batch.changes.map((draft) => toRecord(draft, namespaceKey, batch.revision!, at, by, changeRequest));
          for (const record of records) await insertChangeRecord(trx, record);
          return { value, revision: batch.revision, records, effect };
        })
        .catch((err: unknown) => {
          if (err instanceof NothingChanged) return undefined;
          throw err;
        }),
    );
    if (committed === undefined) return { value: undefined as T, revision: undefined };
    const { records, effect } = committed;
    await this.listeners.announce({ record: records.at(-1)!, batch: records, effect, durationMs: performance.now() - started });
    return { value: committed.value, revision: committed.revision };
  }

  /** A delete that succeeds silently, committing nothing, when `work` finds nothing to delete (returns undefined). */
  async remove(
    namespaceKey: string,
    work: (trx: Knex.Transaction, at: string) => Promise<ChangeDraft | undefined>,
    hints?: DbErrorHints,
  ): Promise<void> {
    await this.claim(namespaceKey, work, undefined, hints);
  }

  /**
   * A write that commits only when `work` returns a change (a claim it won), made as `actor` when
   * given rather than as the request's; true when it committed.
   */
  async claim(
    namespaceKey: string,
    work: (trx: Knex.Transaction, at: string) => Promise<ChangeDraft | undefined>,
    actor?: Actor,
    hints?: DbErrorHints,
  ): Promise<boolean> {
    const batch = currentBatch();
    if (batch !== undefined) {
      checkJoinable(batch, namespaceKey, undefined);
      batch.revision ??= await bumpRevision(batch.trx, namespaceKey, batch.at);
      const change = batch.revision === undefined ? undefined : await work(batch.trx, batch.at);
      if (change === undefined) return false;
      batch.changes.push(change);
      return true;
    }
    try {
      await this.transact(
        async (trx, at) => {
          const revision = await bumpRevision(trx, namespaceKey, at);
          const change = revision === undefined ? undefined : await work(trx, at);
          if (revision === undefined || change === undefined) throw new NothingChanged();
          return { value: undefined, change, namespaceKey, revision };
        },
        hints,
        actor,
      );
      return true;
    } catch (err) {
      if (err instanceof NothingChanged) return false;
      throw err;
    }
  }

  /**
   * One transaction, which also reads the write's snapshot effect so it is exactly the state at
   * the committed revision and stores its change record in the history; listeners hear of it
   * only once it has committed. A transaction the
   * database aborted because another raced it (MySQL deadlocks, PostgreSQL/CockroachDB
   * serialization failures) rolled back whole, so it is run again a few times before failing.
   */
  transact<T>(work: (trx: Knex.Transaction, at: string) => Promise<Written<T>>, hints?: DbErrorHints, actor?: Actor): Promise<T> {
    const batch = currentBatch();
    if (batch !== undefined) return Promise.reject(invalid('this change cannot be part of a batch of changes (namespaces and imports are written on their own)'));
    return traced('ensign.write', { 'db.system': this.dialect }, (span) => this.transactTraced(work, hints, span, actor ?? this.actorOf()));
  }

  private async transactTraced<T>(
    work: (trx: Knex.Transaction, at: string) => Promise<Written<T>>,
    hints: DbErrorHints | undefined,
    span: TraceSpan | undefined,
    actor: Actor | undefined,
  ): Promise<T> {
    const at = this.now();
    const started = performance.now();
    const committed = await this.retrying(
      () =>
        this.knex.transaction(async (trx): Promise<{ value: T; change: Omit<CommittedChange, 'durationMs'> }> => {
          const written = await work(trx, at);
          const record = toRecord(written.change, written.namespaceKey, written.revision, at, actor);
          const { known, lastWrites = [], change } = written;
          // The change record goes with the write's last statements, or with the effect read.
          const effectKnown: SnapshotEffect | undefined =
            known !== undefined ? { kind: 'flags', ...known } : change.touched.kind === 'flags' || change.touched.kind === 'segment' ? undefined : { kind: change.touched.kind };
          if (effectKnown !== undefined) {
            await sendTogether(trx, [...lastWrites, changeRecordInsert(trx, record)]);
            return { value: written.value, change: { record, effect: effectKnown } };
          }
          await sendTogether(trx, lastWrites);
          const effect = await readEffect(trx, written.namespaceKey, written.change.touched, [changeRecordInsert(trx, record)]);
          return { value: written.value, change: { record, effect } };
        }),
      hints,
    );
    const { record } = committed.change;
    span?.setAttributes({ 'ensign.namespace': record.namespaceKey, 'ensign.revision': record.revision, 'ensign.resource': record.resource, 'ensign.action': record.action });
    await this.listeners.announce({ ...committed.change, durationMs: performance.now() - started });
    return committed.value;
  }

  /**
   * Runs `attempt` until it succeeds, again a few times when the database aborted it only because
   * another raced it (it rolled back whole), and translates what it fails with in the end.
   */
  private async retrying<T>(attempt: () => PromiseLike<T>, hints?: DbErrorHints): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (n < MAX_ATTEMPTS && isRetryableDbError(this.dialect, err)) {
          await backoff(n);
          continue;
        }
        throw adaptDbError(this.dialect, err, hints);
      }
    }
  }
}

/** A short, jittered pause so two raced transactions do not collide again in lockstep. */
const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
