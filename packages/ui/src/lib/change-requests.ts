/**
 * Change requests as the UI speaks of them: their states, what may be done in each, who counts as
 * their author, a protected namespace's refusal, and the changes of a draft as edits are added.
 */
import type { Actor, ChangeRecord, ChangeRequest, ChangeRequestState, ProposedChange } from '@ensign/core';
import { countNoun } from './count-noun.js';

/** A request as `GET /{id}` answers it: while open, the diff its changes would make, or why they no longer apply. */
export interface ChangeRequestView extends ChangeRequest {
  diff?: ChangeRecord[];
  conflict?: string;
  conflicts?: unknown;
}

export const STATE_LABEL: Readonly<Record<ChangeRequestState, string>> = {
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
  scheduled: 'Scheduled',
  applied: 'Applied',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/** The badge class of each state. */
export const STATE_BADGE: Readonly<Record<ChangeRequestState, string>> = {
  draft: 'badge',
  in_review: 'badge badge-warning',
  approved: 'badge badge-accent',
  scheduled: 'badge badge-accent',
  applied: 'badge badge-on',
  rejected: 'badge badge-danger',
  cancelled: 'badge badge-off',
};

/** The states a request may still change from. */
export const OPEN_STATES: readonly ChangeRequestState[] = ['draft', 'in_review', 'approved', 'scheduled'];

export const isOpen = (state: ChangeRequestState): boolean => OPEN_STATES.includes(state);

/** The title a draft made by an edit gets. */
export const DRAFT_TITLE = 'Draft changes';

/** What may be done with a request in its state, before who asks is considered. */
export interface StateActions {
  submit: boolean;
  approve: boolean;
  reject: boolean;
  apply: boolean;
  schedule: boolean;
  cancel: boolean;
  /** Its title, description and changes may be replaced. */
  edit: boolean;
}

export function actionsIn(state: ChangeRequestState): StateActions {
  return {
    submit: state === 'draft',
    approve: state === 'in_review' || state === 'approved',
    reject: state === 'in_review' || state === 'approved' || state === 'scheduled',
    apply: state === 'approved' || state === 'scheduled',
    schedule: state === 'approved' || state === 'scheduled',
    cancel: isOpen(state),
    edit: state === 'draft',
  };
}

/** Whether `actor` is the caller whose authentication id is `callerId` (undefined: authentication is off, nobody is anyone). */
export const isCaller = (actor: Actor | undefined, callerId: string | undefined): boolean => actor !== undefined && callerId !== undefined && actor.authenticationId === callerId;

/**
 * The caller's open draft among `drafts` (newest first, as listed): the first whose author is the
 * caller; with authentication off (`callerId` undefined), the first without an author.
 */
export function ownDraft<T extends Pick<ChangeRequest, 'state' | 'author'>>(drafts: readonly T[], callerId: string | undefined): T | undefined {
  return drafts.find((r) => r.state === 'draft' && (callerId === undefined ? r.author === undefined : isCaller(r.author, callerId)));
}

/** "1 of 2 approvals". */
export const approvalsText = (approvals: number, required: number): string => `${approvals} of ${countNoun(Math.max(1, required), 'approval')}`;

const PROTECTED = /^namespace "([^"]+)" is protected: changes to it are made through a change request/;

/** The namespace a refusal says is protected, when it is that refusal. */
export function protectedNamespaceOf(message: string): string | undefined {
  return PROTECTED.exec(message)?.[1];
}

/**
 * A refusal of a request's changes names the change by index (`changes[2] (PUT /api/v1/…): invalid field name: …`).
 * For the change at `index` this answers what was said of it alone, so a form can show it by its field.
 */
export function messageOfChange(message: string, index: number): string | undefined {
  const prefix = `changes[${index}] (`;
  if (!message.startsWith(prefix)) return undefined;
  const end = message.indexOf('): ', prefix.length);
  return end === -1 ? undefined : message.slice(end + 3);
}

/** The index of the change a refusal names, when it names one. */
export function changeIndexOf(message: string): number | undefined {
  const found = /^(?:invalid field )?changes\[(\d+)\]/.exec(message);
  return found === null ? undefined : Number(found[1]);
}

/** The path of a proposed call without the API's prefix and namespace: `flags/checkout/variants`. */
export function shortPath(change: ProposedChange, ns: string): string {
  const prefix = `/api/v1/namespaces/${encodeURIComponent(ns)}/`;
  return change.path.startsWith(prefix) ? change.path.slice(prefix.length) : change.path;
}
