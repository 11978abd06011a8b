import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  type Actor,
  type ChangeBase,
  type ChangeConflict,
  type ChangeRecord,
  canonicalChanges,
  conflictsWith,
  describeConflict,
  type ChangeRequest,
  type ChangeRequestEvent,
  type ChangeRequestRef,
  type ChangeRequestState,
  conflict,
  notFound,
  permissionDenied,
  type ProposedChange,
} from '@ensign/core';
import { keysOfBase, readChangeBase, touchedKeysOf } from '../change-base.js';
import { createdByColumns } from '../flag-steps.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';
import { currentBatch } from '../write-batch.js';

/** A request's content as it is proposed or replaced. */
export interface ChangeRequestContent {
  title: string;
  description: string;
  changes: ProposedChange[];
  /** What the changes were written against (`baseFor` their trial's records): an apply finding any of it changed is a conflict. */
  base?: ChangeBase;
}

/** Which requests a list returns; absent filters match every request. */
export interface ChangeRequestFilter {
  states?: readonly ChangeRequestState[];
  /** The author's authentication id or name. */
  author?: string;
}

interface RequestRow {
  id: string;
  namespace_key: string;
  title: string;
  description: string;
  state: ChangeRequestState;
  changes: string;
  digest: string;
  author_id: string | null;
  author_method: string | null;
  author_name: string | null;
  apply_at: string | null;
  suspended_reason: string | null;
  applied_revision: number | string | null;
  base: string | null;
  created_at: string;
  updated_at: string;
}

interface EventRow {
  change_request_id: string;
  kind: ChangeRequestEvent['kind'];
  digest: string;
  comment: string;
  actor_id: string | null;
  actor_method: string | null;
  actor_name: string | null;
  created_at: string;
}

/** States from which a request may still change; the others are final. */
const OPEN: readonly ChangeRequestState[] = ['draft', 'in_review', 'approved', 'scheduled'];

export const digestOf = (changes: readonly ProposedChange[]): string => createHash('sha256').update(canonicalChanges(changes)).digest('hex');

function actorOf(id: string | null, method: string | null, name: string | null): Actor | undefined {
  if (method === null) return undefined;
  return { authenticationId: id ?? '', method, ...(name === null ? {} : { name }) };
}

/**
 * Two actors are one caller when they hold the same authentication, or, signed in by a person
 * (OIDC, GitHub, a JWT, …: every method but a static token), carry the same name: each sign-in is
 * an authentication of its own, so a second login is still the author. Tokens are told apart by
 * id only, as two may share a name.
 */
function sameCaller(a: Actor | undefined, b: Actor | undefined): boolean {
  if (a === undefined || b === undefined || a.method !== b.method) return false;
  if (a.authenticationId === b.authenticationId) return true;
  return a.method !== 'METHOD_TOKEN' && a.name !== undefined && a.name !== '' && a.name === b.name;
}

function toEvent(row: EventRow): ChangeRequestEvent {
  const actor = actorOf(row.actor_id, row.actor_method, row.actor_name);
  return { kind: row.kind, digest: row.digest, comment: row.comment, ...(actor === undefined ? {} : { actor }), at: row.created_at };
}

function toRequest(row: RequestRow, events: ChangeRequestEvent[]): ChangeRequest {
  const author = actorOf(row.author_id, row.author_method, row.author_name);
  return {
    id: row.id,
    namespaceKey: row.namespace_key,
    title: row.title,
    description: row.description,
    state: row.state,
    changes: JSON.parse(row.changes) as ProposedChange[],
    digest: row.digest,
    ...(author === undefined ? {} : { author }),
    approvals: events.filter((e) => e.kind === 'approved' && e.digest === row.digest),
    events,
    ...(row.apply_at === null ? {} : { applyAt: row.apply_at }),
    ...(row.suspended_reason === null ? {} : { suspendedReason: row.suspended_reason }),
    ...(row.applied_revision === null ? {} : { appliedRevision: Number(row.applied_revision) }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Change requests: proposed, replaced (voiding approvals), approved per digest, rejected,
 * cancelled, and applied once, in the same transaction as their changes.
 */
export class KnexChangeRequestRepository {
  constructor(private readonly tx: Transactor) {}

  create(namespaceKey: string, content: ChangeRequestContent): Promise<ChangeRequest> {
    const ns = nsOf(namespaceKey);
    return this.tx.statement(async (db) => {
      if ((await db('namespaces').where({ key: ns }).first('key')) === undefined) throw notFound(`namespace "${ns}" not found`);
      const id = randomUUID();
      const at = this.tx.now();
      const author = createdByColumns(this.tx.actor());
      await db('change_requests').insert({
        id,
        namespace_key: ns,
        title: content.title,
        description: content.description,
        state: 'draft',
        changes: JSON.stringify(content.changes),
        digest: digestOf(content.changes),
        author_id: author.created_by_id,
        author_method: author.created_by_method,
        author_name: author.created_by_name,
        apply_at: null,
        suspended_reason: null,
        applied_revision: null,
        base: content.base === undefined ? null : JSON.stringify(content.base),
        created_at: at,
        updated_at: at,
      });
      return mustLoad(db, ns, id);
    });
  }

  list(namespaceKey: string, filter: ChangeRequestFilter = {}): Promise<ChangeRequest[]> {
    const ns = nsOf(namespaceKey);
    return this.tx.read(async (db) => {
      const query = db('change_requests').where({ namespace_key: ns }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]);
      if (filter.states !== undefined && filter.states.length > 0) query.whereIn('state', [...filter.states]);
      if (filter.author !== undefined) query.where((q) => q.where('author_id', filter.author!).orWhere('author_name', filter.author!));
      const rows = (await query) as RequestRow[];
      const events = await eventsOf(db, rows.map((r) => r.id));
      return rows.map((row) => toRequest(row, events.get(row.id) ?? []));
    });
  }

  get(namespaceKey: string, id: string): Promise<ChangeRequest> {
    return this.tx.read((db) => mustLoad(db, nsOf(namespaceKey), id));
  }

  /** New content: a new digest, so every approval is void and the request is back in review (a draft stays one). */
  replace(namespaceKey: string, id: string, content: ChangeRequestContent): Promise<ChangeRequest> {
    return this.transition(namespaceKey, id, OPEN, (row) => ({
      title: content.title,
      description: content.description,
      changes: JSON.stringify(content.changes),
      digest: digestOf(content.changes),
      base: content.base === undefined ? null : JSON.stringify(content.base),
      state: row.state === 'draft' ? 'draft' : 'in_review',
      apply_at: null,
      suspended_reason: null,
    }));
  }

  /** A draft goes to review. */
  submit(namespaceKey: string, id: string): Promise<ChangeRequest> {
    return this.transition(namespaceKey, id, ['draft'], () => ({ state: 'in_review' }));
  }

  /**
   * Records the caller's approval of the current digest (once per caller and digest); the request is
   * approved once `required` callers have approved it. Its author cannot approve it, and an approval
   * of another digest (the changes were replaced since) is refused.
   */
  approve(namespaceKey: string, id: string, required: number, digest?: string): Promise<ChangeRequest> {
    const actor = this.tx.actor();
    return this.withEvent(namespaceKey, id, ['in_review', 'approved'], async (db, row, events) => {
      if (digest !== undefined && digest !== row.digest) throw conflict(`change request "${id}" now has digest ${row.digest}, not ${digest}: its changes were replaced; review them again`);
      if (sameCaller(actor, actorOf(row.author_id, row.author_method, row.author_name))) throw permissionDenied(`the author of change request "${id}" cannot approve it`);
      const approvals = events.filter((e) => e.kind === 'approved' && e.digest === row.digest);
      const already = approvals.some((e) => sameCaller(e.actor, actor) || (actor === undefined && e.actor === undefined));
      if (!already) await insertEvent(db, id, 'approved', row.digest, '', actor, this.tx.now());
      const count = approvals.length + (already ? 0 : 1);
      return { state: count >= required ? 'approved' : 'in_review' };
    });
  }

  /** Rejects it, with a comment: final. */
  reject(namespaceKey: string, id: string, comment: string): Promise<ChangeRequest> {
    return this.withEvent(namespaceKey, id, ['in_review', 'approved', 'scheduled'], async (db, row) => {
      await insertEvent(db, id, 'rejected', row.digest, comment, this.tx.actor(), this.tx.now());
      return { state: 'rejected', apply_at: null };
    });
  }

  comment(namespaceKey: string, id: string, comment: string): Promise<ChangeRequest> {
    return this.withEvent(namespaceKey, id, [...OPEN, 'applied', 'rejected', 'cancelled'], async (db, row) => {
      await insertEvent(db, id, 'commented', row.digest, comment, this.tx.actor(), this.tx.now());
      return {};
    });
  }

  cancel(namespaceKey: string, id: string): Promise<ChangeRequest> {
    return this.transition(namespaceKey, id, OPEN, () => ({ state: 'cancelled', apply_at: null }));
  }

  /** An approved request is to be applied at `applyAt`. */
  schedule(namespaceKey: string, id: string, applyAt: string): Promise<ChangeRequest> {
    return this.transition(namespaceKey, id, ['approved', 'scheduled'], () => ({ state: 'scheduled', apply_at: applyAt, suspended_reason: null }));
  }

  /** A scheduled apply that could not be made: back to approved, with the reason kept and shown. */
  suspend(namespaceKey: string, id: string, reason: string): Promise<ChangeRequest> {
    return this.transition(namespaceKey, id, ['scheduled'], () => ({ state: 'approved', apply_at: null, suspended_reason: reason }));
  }

  /** Scheduled requests whose time has come by `now`, oldest first, at most `limit`. */
  due(now: string, limit = 100): Promise<Array<{ namespaceKey: string; id: string; applyAt: string }>> {
    return this.tx.read(async (db) =>
      (
        (await db('change_requests').select('namespace_key', 'id', 'apply_at').where('state', 'scheduled').where('apply_at', '<=', now).orderBy('apply_at').limit(limit)) as Array<{
          namespace_key: string;
          id: string;
          apply_at: string;
        }>
      ).map((r) => ({ namespaceKey: r.namespace_key, id: r.id, applyAt: r.apply_at })),
    );
  }

  /** When the next scheduled request is to be applied; undefined when none is scheduled. */
  nextApplyAt(): Promise<string | undefined> {
    return this.tx.read(async (db) => ((await db('change_requests').where('state', 'scheduled').min({ at: 'apply_at' }).first()) as { at: string | null } | undefined)?.at ?? undefined);
  }

  /**
   * Applies the request: `applyChanges` makes its writes through the repositories, all in one
   * transaction and one revision with the request's claim (approved or scheduled → applied, of the
   * digest that was approved), each recorded with the request's id, title, author and approvers.
   * Anything its changes touch that changed since they were written (its base) refuses the apply as
   * a conflict. Exactly one of two concurrent applies commits; a failure anywhere leaves nothing
   * applied and the request as it was. `actor` makes the writes (the scheduler's) instead of the caller.
   */
  async apply(namespaceKey: string, id: string, applyChanges: () => Promise<void>, actor?: Actor): Promise<ChangeRequest> {
    const ns = nsOf(namespaceKey);
    const request = await this.get(ns, id);
    const ref: ChangeRequestRef = {
      id,
      title: request.title,
      ...(request.author === undefined ? {} : { author: request.author }),
      approvers: request.approvals.flatMap((a) => (a.actor === undefined ? [] : [a.actor])),
    };
    const base = await this.baseOf(ns, id);
    const { revision } = await this.tx.batch(
      ns,
      async () => {
        const batch = currentBatch()!;
        const claimed = await batch
          .trx('change_requests')
          .where({ id, namespace_key: ns, digest: request.digest })
          .whereIn('state', ['approved', 'scheduled'])
          .update({ state: 'applied', apply_at: null, suspended_reason: null, updated_at: batch.at });
        if (claimed === 0) throw conflict(`change request "${id}" is not approved at digest ${request.digest} (applied, replaced or withdrawn meanwhile)`);
        if (base !== undefined) {
          const conflicts = conflictsWith(base, await readChangeBase(batch.trx, ns, keysOfBase(base)));
          if (conflicts.length > 0) {
            throw conflict(`change request "${id}" conflicts with changes made since it was written, to ${conflicts.map(describeConflict).join(', ')}; replace its changes to re-base it`);
          }
        }
        await applyChanges();
        await batch.trx('change_requests').where({ id }).update({ applied_revision: batch.revision ?? null });
      },
      actor,
      ref,
    );
    if (revision === undefined) throw conflict(`change request "${id}" changes nothing: everything it proposes is already so`);
    return this.get(ns, id);
  }

  /** The base of changes that make `records` (what a trial of them answered): the flags and segments they touch, as committed now. */
  baseFor(namespaceKey: string, records: readonly ChangeRecord[]): Promise<ChangeBase> {
    const ns = nsOf(namespaceKey);
    return this.tx.read((db) => readChangeBase(db, ns, touchedKeysOf(records)));
  }

  /** What the request touches that changed since it was written; none for a request written before bases were kept. */
  async conflictsOf(namespaceKey: string, id: string): Promise<ChangeConflict[]> {
    const ns = nsOf(namespaceKey);
    const base = await this.baseOf(ns, id);
    if (base === undefined) return [];
    return conflictsWith(base, await this.tx.read((db) => readChangeBase(db, ns, keysOfBase(base))));
  }

  /** What the request was written against; undefined for a request written before bases were kept. */
  baseOf(namespaceKey: string, id: string): Promise<ChangeBase | undefined> {
    return this.tx.read(async (db) => {
      const row = (await db('change_requests').where({ id, namespace_key: nsOf(namespaceKey) }).first('base')) as { base: string | null } | undefined;
      return row?.base === null || row?.base === undefined ? undefined : (JSON.parse(row.base) as ChangeBase);
    });
  }

  private transition(namespaceKey: string, id: string, from: readonly ChangeRequestState[], patch: (row: RequestRow) => Partial<RequestRow>): Promise<ChangeRequest> {
    return this.withEvent(namespaceKey, id, from, async (_db, row) => patch(row));
  }

  /** Loads the request in a transaction, checks its state, runs `step`, writes the patch it gives. */
  private withEvent(
    namespaceKey: string,
    id: string,
    from: readonly ChangeRequestState[],
    step: (db: Knex.Transaction, row: RequestRow, events: ChangeRequestEvent[]) => Promise<Partial<RequestRow>>,
  ): Promise<ChangeRequest> {
    const ns = nsOf(namespaceKey);
    return this.tx.statement((knex) =>
      knex.transaction(async (db) => {
        const query = db('change_requests').where({ id, namespace_key: ns }).first();
        // SQLite runs one transaction at a time; elsewhere the row is locked until this one ends.
        if (this.tx.dialect !== 'sqlite') void query.forUpdate();
        const row = (await query) as RequestRow | undefined;
        if (row === undefined) throw notFound(`change request "${ns}/${id}" not found`);
        if (!from.includes(row.state)) throw conflict(`change request "${id}" is ${row.state.replace('_', ' ')}`);
        const events = (await eventsOf(db, [id])).get(id) ?? [];
        const patch = await step(db, row, events);
        await db('change_requests').where({ id }).update({ ...patch, updated_at: this.tx.now() });
        return mustLoad(db, ns, id);
      }),
    );
  }
}

async function insertEvent(db: Knex, id: string, kind: ChangeRequestEvent['kind'], digest: string, comment: string, actor: Actor | undefined, at: string): Promise<void> {
  const by = createdByColumns(actor);
  await db('change_request_events').insert({
    change_request_id: id,
    kind,
    digest,
    comment,
    actor_id: by.created_by_id,
    actor_method: by.created_by_method,
    actor_name: by.created_by_name,
    created_at: at,
  });
}

async function eventsOf(db: Knex, ids: readonly string[]): Promise<Map<string, ChangeRequestEvent[]>> {
  const out = new Map<string, ChangeRequestEvent[]>();
  if (ids.length === 0) return out;
  const rows = (await db('change_request_events').whereIn('change_request_id', [...ids]).orderBy('id')) as EventRow[];
  for (const row of rows) {
    const list = out.get(row.change_request_id) ?? [];
    list.push(toEvent(row));
    out.set(row.change_request_id, list);
  }
  return out;
}

async function mustLoad(db: Knex, ns: string, id: string): Promise<ChangeRequest> {
  const row = (await db('change_requests').where({ id, namespace_key: ns }).first()) as RequestRow | undefined;
  if (row === undefined) throw notFound(`change request "${ns}/${id}" not found`);
  return toRequest(row, (await eventsOf(db, [id])).get(id) ?? []);
}
