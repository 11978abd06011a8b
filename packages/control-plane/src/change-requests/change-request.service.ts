/**
 * Change request use cases: each proposed change is resolved to its management operation and the
 * whole list is tried (run and rolled back) when it is written, so a request holds only calls that
 * would succeed now and says what they would change; an apply runs them again, through the same
 * routes, in one transaction with the request's claim.
 */
import {
  type Actor,
  AppError,
  Code,
  type ChangeConflict,
  type ChangeRecord,
  type ChangeRequest,
  type ChangeRequestState,
  CHANGE_REQUEST_STATES,
  describeConflict,
  type Fields,
  invalidField,
  isAppError,
  isFields,
  isServerFault,
  lookup,
  type ProposedChange,
  readString,
  readTime,
  requireValue,
} from '@ensign/core';
import { type ChangePolicy, type ChangeRequestContent, digestOf, type SqlStore } from '@ensign/store';
import type { AppState } from '../http/app-state.js';
import type { ManagementDispatcher } from './management-dispatcher.js';
import type { PromotionRequest } from './promotion.js';

/** The most changes one request may propose: a promotion of about 2,000 flags; narrow a larger one with `flags`. */
export const MAX_CHANGES = 10_000;

const METHODS = new Set(['POST', 'PUT', 'DELETE']);

/**
 * A request as the API answers it: while it is open, the change records its changes would make;
 * when they no longer apply, why (`conflict`), and what changed since they were written (`conflicts`).
 */
export type ChangeRequestView = ChangeRequest & { diff?: ChangeRecord[]; conflict?: string; conflicts?: ChangeConflict[] };

/** What a preview (`?dryRun=true`) answers: the request as it would be made, nothing stored. */
export interface ChangeRequestPreview {
  namespaceKey: string;
  title: string;
  description: string;
  changes: ProposedChange[];
  digest: string;
  diff: ChangeRecord[];
}

/** Works out the calls that make `target` match a promotion's source. */
export type PromotionPlanner = (target: string, request: PromotionRequest) => Promise<ProposedChange[]>;

/** A create body: its changes as given, or a promotion to work them out from. */
export type ChangeRequestDraft = ChangeRequestContent | (Omit<ChangeRequestContent, 'changes'> & { promotion: PromotionRequest });

export interface ChangeRequestDeps {
  store: Pick<SqlStore, 'changeRequests' | 'changePolicies' | 'trial'>;
  dispatcher: ManagementDispatcher;
  promotion?: PromotionPlanner;
}

/** The actor of a scheduled apply's writes; the request's author and approvers are on every record. */
const scheduledActor = (id: string): Actor => ({ authenticationId: id, method: 'METHOD_SCHEDULE', name: 'scheduled change request' });

/** The `changes` of a request body, each `{method, path, body?}`. */
export function decodeChanges(body: Fields): ProposedChange[] {
  const raw = lookup(body, 'changes');
  if (!Array.isArray(raw)) throw invalidField('changes', 'must be an array of {method, path, body}');
  if (raw.length === 0) throw invalidField('changes', 'must propose at least one change');
  if (raw.length > MAX_CHANGES) throw invalidField('changes', `must propose at most ${MAX_CHANGES} changes`);
  return raw.map((item: unknown, i): ProposedChange => {
    const field = `changes[${i}]`;
    if (!isFields(item)) throw invalidField(field, 'must be an object {method, path, body}');
    const method = readString(item, 'method', `${field}.method`).toUpperCase();
    if (!METHODS.has(method)) throw invalidField(`${field}.method`, 'must be POST, PUT or DELETE');
    const path = readString(item, 'path', `${field}.path`);
    requireValue(path, `${field}.path`);
    const payload = lookup(item, 'body');
    if (payload !== undefined && !isFields(payload)) throw invalidField(`${field}.body`, 'must be a JSON object');
    return { method: method as ProposedChange['method'], path, ...(payload === undefined ? {} : { body: payload }) };
  });
}

/** Title, description and changes of a create or replace body. */
export function decodeContent(body: Fields): ChangeRequestContent {
  const title = readString(body, 'title');
  requireValue(title, 'title');
  return { title, description: readString(body, 'description'), changes: decodeChanges(body) };
}

/** A list of keys (`flags`, `segments`) of a promotion body; undefined when absent. */
function decodeKeys(body: Fields, field: string): string[] | undefined {
  const raw = lookup(body, field);
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || !raw.every((k): k is string => typeof k === 'string' && k !== '')) throw invalidField(field, 'must be an array of keys');
  return [...new Set(raw)];
}

/** A create body: `{title, description, changes}`, or `{promoteFrom, flags?, segments?, title?, description?}`. */
export function decodeDraft(body: Fields): ChangeRequestDraft {
  const from = lookup(body, 'promoteFrom');
  if (from === undefined) return decodeContent(body);
  if (typeof from !== 'string' || from === '') throw invalidField('promoteFrom', 'must be the key of the namespace to promote from');
  if (lookup(body, 'changes') !== undefined) throw invalidField('changes', 'cannot be given with promoteFrom: a promotion works its changes out');
  const flags = decodeKeys(body, 'flags');
  const segments = decodeKeys(body, 'segments');
  const title = readString(body, 'title');
  return {
    title: title === '' ? `Promote from ${from}` : title,
    description: readString(body, 'description'),
    promotion: { from, ...(flags === undefined ? {} : { flags }), ...(segments === undefined ? {} : { segments }) },
  };
}

/** `?state=` filters, one or several (comma-separated or repeated). */
export function decodeStates(query: Fields): ChangeRequestState[] {
  const raw = readString(query, 'state');
  if (raw === '') return [];
  const states = raw.split(',').map((s) => s.trim());
  for (const state of states) {
    if (!(CHANGE_REQUEST_STATES as readonly string[]).includes(state)) throw invalidField('state', `"${state}" is not one of ${CHANGE_REQUEST_STATES.join(', ')}`);
  }
  return states as ChangeRequestState[];
}

/** `applyAt` of an apply body: undefined applies now. */
export const decodeApplyAt = (body: Fields): string | undefined => readTime(body, 'applyAt');

const OPEN: readonly ChangeRequestState[] = ['draft', 'in_review', 'approved', 'scheduled'];

export class ChangeRequestService {
  constructor(private readonly deps: ChangeRequestDeps) {}

  async create(namespaceKey: string, draft: ChangeRequestDraft, state: AppState): Promise<ChangeRequestView> {
    const content = await this.contentOf(namespaceKey, draft);
    const diff = await this.tryChanges(namespaceKey, content.changes, state);
    const base = await this.deps.store.changeRequests.baseFor(namespaceKey, diff);
    return { ...(await this.deps.store.changeRequests.create(namespaceKey, { ...content, base })), diff };
  }

  /** The request a create would make, and its diff; nothing is stored. */
  async preview(namespaceKey: string, draft: ChangeRequestDraft, state: AppState): Promise<ChangeRequestPreview> {
    const content = await this.contentOf(namespaceKey, draft);
    const diff = await this.tryChanges(namespaceKey, content.changes, state);
    return { namespaceKey, title: content.title, description: content.description, changes: content.changes, digest: digestOf(content.changes), diff };
  }

  /** The changes of a draft: as given, or worked out from its promotion (none to make is refused: there is nothing to review). */
  private async contentOf(namespaceKey: string, draft: ChangeRequestDraft): Promise<ChangeRequestContent> {
    if (!('promotion' in draft)) return draft;
    const { promotion, ...rest } = draft;
    if (this.deps.promotion === undefined) throw invalidField('promoteFrom', 'promotion is not served here');
    if (promotion.from === namespaceKey) throw invalidField('promoteFrom', `is the namespace promoted to ("${namespaceKey}")`);
    const changes = await this.deps.promotion(namespaceKey, promotion);
    if (changes.length === 0) throw invalidField('promoteFrom', `"${namespaceKey}" already matches "${promotion.from}" for what is promoted: there is nothing to change`);
    if (changes.length > MAX_CHANGES) throw invalidField('promoteFrom', `the promotion takes ${changes.length} changes, more than ${MAX_CHANGES}: promote fewer flags at a time (flags, segments)`);
    return { ...rest, changes };
  }

  async list(namespaceKey: string, states: ChangeRequestState[], author: string | undefined): Promise<ChangeRequest[]> {
    return this.deps.store.changeRequests.list(namespaceKey, { states, ...(author === undefined || author === '' ? {} : { author }) });
  }

  /** The request, with the diff its changes would make now while it is open. */
  async get(namespaceKey: string, id: string, state: AppState): Promise<ChangeRequestView> {
    const request = await this.deps.store.changeRequests.get(namespaceKey, id);
    if (!OPEN.includes(request.state)) return request;
    const conflicts = await this.deps.store.changeRequests.conflictsOf(namespaceKey, id);
    const changed = conflicts.length === 0 ? {} : { conflicts };
    let diff: ChangeRecord[];
    try {
      diff = await this.tryChanges(namespaceKey, request.changes, state);
    } catch (err) {
      // What no longer applies is shown as such; the author replaces the changes.
      if (isAppError(err)) return { ...request, conflict: err.message, ...changed };
      throw err;
    }
    if (conflicts.length === 0) return { ...request, diff };
    return { ...request, diff, conflict: `changed since the request was written: ${conflicts.map(describeConflict).join(', ')}; replace its changes to re-base it`, ...changed };
  }

  async replace(namespaceKey: string, id: string, content: ChangeRequestContent, state: AppState): Promise<ChangeRequestView> {
    const diff = await this.tryChanges(namespaceKey, content.changes, state);
    const base = await this.deps.store.changeRequests.baseFor(namespaceKey, diff);
    return { ...(await this.deps.store.changeRequests.replace(namespaceKey, id, { ...content, base })), diff };
  }

  submit(namespaceKey: string, id: string): Promise<ChangeRequest> {
    return this.deps.store.changeRequests.submit(namespaceKey, id);
  }

  /** Approved once as many callers as the namespace's policy asks for (at least one) have approved it. */
  async approve(namespaceKey: string, id: string, digest: string | undefined): Promise<ChangeRequest> {
    const required = Math.max(1, await this.deps.store.changePolicies.requiredApprovals(namespaceKey));
    return this.deps.store.changeRequests.approve(namespaceKey, id, required, digest);
  }

  getPolicy(namespaceKey: string): Promise<ChangePolicy> {
    return this.deps.store.changePolicies.get(namespaceKey);
  }

  /** Changing the policy is itself recorded (on the namespace), and lowering it to 0 is the way out of an emergency. */
  setPolicy(namespaceKey: string, body: Fields): Promise<ChangePolicy> {
    const value = lookup(body, 'requiredApprovals');
    if (typeof value !== 'number') throw invalidField('requiredApprovals', 'must be a whole number (0 turns protection off)');
    return this.deps.store.changePolicies.update(namespaceKey, value);
  }

  reject(namespaceKey: string, id: string, comment: string): Promise<ChangeRequest> {
    return this.deps.store.changeRequests.reject(namespaceKey, id, comment);
  }

  comment(namespaceKey: string, id: string, comment: string): Promise<ChangeRequest> {
    requireValue(comment, 'comment');
    return this.deps.store.changeRequests.comment(namespaceKey, id, comment);
  }

  cancel(namespaceKey: string, id: string): Promise<ChangeRequest> {
    return this.deps.store.changeRequests.cancel(namespaceKey, id);
  }

  /** Applies an approved request now (its changes run as the caller), or schedules it for `applyAt`. */
  async apply(namespaceKey: string, id: string, applyAt: string | undefined, state: AppState): Promise<ChangeRequest> {
    const { changeRequests } = this.deps.store;
    if (applyAt !== undefined) {
      if (Date.parse(applyAt) <= Date.now()) throw invalidField('applyAt', 'must be in the future (apply without it to apply now)');
      return changeRequests.schedule(namespaceKey, id, applyAt);
    }
    const request = await changeRequests.get(namespaceKey, id);
    return changeRequests.apply(namespaceKey, id, () => this.runAll(namespaceKey, request.changes, state, true));
  }

  /**
   * Applies a scheduled request whose time has come, as the scheduler: its approvals were the
   * check. What cannot be applied then (a conflict, a change that no longer applies) suspends it,
   * back to approved with the reason shown. False when it was not applied.
   */
  async applyScheduled(namespaceKey: string, id: string, log: AppState['log']): Promise<boolean> {
    const { changeRequests } = this.deps.store;
    const request = await changeRequests.get(namespaceKey, id);
    if (request.state !== 'scheduled') return false;
    const state: AppState = { log, changeRequest: { scheduled: true } };
    try {
      await changeRequests.apply(namespaceKey, id, () => this.runAll(namespaceKey, request.changes, state, true), scheduledActor(id));
      return true;
    } catch (err) {
      if (!isAppError(err) || isServerFault(err)) throw err;
      await changeRequests.suspend(namespaceKey, id, `not applied at ${request.applyAt ?? 'its time'}: ${err.message}`).catch(() => undefined);
      log.warn({ namespace: namespaceKey, changeRequest: id, reason: err.message }, 'scheduled change request suspended');
      return false;
    }
  }

  /** Every change run and rolled back: the change records they would make, or the first refusal, naming its change. */
  private async tryChanges(namespaceKey: string, changes: readonly ProposedChange[], state: AppState): Promise<ChangeRecord[]> {
    changes.forEach((change, i) => this.deps.dispatcher.resolve(change, namespaceKey, `changes[${i}]`));
    const { records } = await this.deps.store.trial(namespaceKey, () => this.runAll(namespaceKey, changes, state));
    return records;
  }

  /**
   * Runs every change in order. At apply (`applying`), a change that no longer applies is a
   * conflict (409): the request was checked when written, so the namespace moved since.
   */
  private async runAll(namespaceKey: string, changes: readonly ProposedChange[], state: AppState, applying = false): Promise<void> {
    for (const [i, change] of changes.entries()) {
      try {
        await this.deps.dispatcher.run(change, namespaceKey, `changes[${i}]`, state);
      } catch (err) {
        if (!isAppError(err) || err.message.startsWith('invalid field changes[')) throw err;
        const moved = applying && !isServerFault(err) && err.code !== Code.PermissionDenied && err.code !== Code.Unauthenticated;
        throw new AppError(moved ? Code.FailedPrecondition : err.code, `changes[${i}] (${change.method} ${change.path.slice(0, 256)}): ${err.message}`, {
          field: `changes[${i}]`,
          httpStatus: moved ? 409 : err.httpStatus,
        });
      }
    }
  }
}
