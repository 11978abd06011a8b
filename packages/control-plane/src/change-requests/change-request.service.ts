/**
 * Change request use cases: each proposed change is resolved to its management operation and the
 * whole list is tried (run and rolled back) when it is written, so a request holds only calls that
 * would succeed now and says what they would change; an apply runs them again, through the same
 * routes, in one transaction with the request's claim.
 */
import {
  AppError,
  type ChangeRecord,
  type ChangeRequest,
  type ChangeRequestState,
  CHANGE_REQUEST_STATES,
  type Fields,
  invalidField,
  isAppError,
  isFields,
  lookup,
  type ProposedChange,
  readString,
  readTime,
  requireValue,
} from '@ensign/core';
import type { ChangePolicy, ChangeRequestContent, SqlStore } from '@ensign/store';
import type { AppState } from '../http/app-state.js';
import type { ManagementDispatcher } from './management-dispatcher.js';

/** The most changes one request may propose. */
export const MAX_CHANGES = 500;

const METHODS = new Set(['POST', 'PUT', 'DELETE']);

/** A request as the API answers it: with the change records its changes would make, while it is open. */
export type ChangeRequestView = ChangeRequest & { diff?: ChangeRecord[] };

export interface ChangeRequestDeps {
  store: Pick<SqlStore, 'changeRequests' | 'changePolicies' | 'trial'>;
  dispatcher: ManagementDispatcher;
}

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

  async create(namespaceKey: string, content: ChangeRequestContent, state: AppState): Promise<ChangeRequestView> {
    const diff = await this.tryChanges(namespaceKey, content.changes, state);
    return { ...(await this.deps.store.changeRequests.create(namespaceKey, content)), diff };
  }

  async list(namespaceKey: string, states: ChangeRequestState[], author: string | undefined): Promise<ChangeRequest[]> {
    return this.deps.store.changeRequests.list(namespaceKey, { states, ...(author === undefined || author === '' ? {} : { author }) });
  }

  /** The request, with the diff its changes would make now while it is open. */
  async get(namespaceKey: string, id: string, state: AppState): Promise<ChangeRequestView> {
    const request = await this.deps.store.changeRequests.get(namespaceKey, id);
    if (!OPEN.includes(request.state)) return request;
    try {
      return { ...request, diff: await this.tryChanges(namespaceKey, request.changes, state) };
    } catch (err) {
      // What no longer applies is shown as such; the author replaces the changes.
      if (isAppError(err)) return { ...request, conflict: err.message } as ChangeRequestView;
      throw err;
    }
  }

  async replace(namespaceKey: string, id: string, content: ChangeRequestContent, state: AppState): Promise<ChangeRequestView> {
    const diff = await this.tryChanges(namespaceKey, content.changes, state);
    return { ...(await this.deps.store.changeRequests.replace(namespaceKey, id, content)), diff };
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

  /** Applies an approved request now, or schedules it for `applyAt`. */
  async apply(namespaceKey: string, id: string, applyAt: string | undefined, state: AppState): Promise<ChangeRequest> {
    const { changeRequests } = this.deps.store;
    if (applyAt !== undefined) return changeRequests.schedule(namespaceKey, id, applyAt);
    const request = await changeRequests.get(namespaceKey, id);
    return changeRequests.apply(namespaceKey, id, request.digest, () => this.runAll(namespaceKey, request.changes, state));
  }

  /** Every change run and rolled back: the change records they would make, or the first refusal, naming its change. */
  private async tryChanges(namespaceKey: string, changes: readonly ProposedChange[], state: AppState): Promise<ChangeRecord[]> {
    changes.forEach((change, i) => this.deps.dispatcher.resolve(change, namespaceKey, `changes[${i}]`));
    const { records } = await this.deps.store.trial(namespaceKey, () => this.runAll(namespaceKey, changes, state));
    return records;
  }

  private async runAll(namespaceKey: string, changes: readonly ProposedChange[], state: AppState): Promise<void> {
    for (const [i, change] of changes.entries()) {
      try {
        await this.deps.dispatcher.run(change, namespaceKey, `changes[${i}]`, state);
      } catch (err) {
        if (!isAppError(err) || err.message.startsWith('invalid field changes[')) throw err;
        throw new AppError(err.code, `changes[${i}] (${change.method} ${change.path.slice(0, 256)}): ${err.message}`, { field: `changes[${i}]`, httpStatus: err.httpStatus });
      }
    }
  }
}
