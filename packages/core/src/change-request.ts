/**
 * Change requests: management calls proposed together, reviewed, and applied as one revision.
 * States are Unleash's: draft → in review → approved → scheduled → applied, or rejected / cancelled.
 */
import type { Actor } from './change-record.js';
import { sortKeysDeep } from './flipt-document/json-value.js';

export const CHANGE_REQUEST_STATES = ['draft', 'in_review', 'approved', 'scheduled', 'applied', 'rejected', 'cancelled'] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];

/** One proposed management call, as the API already takes it. */
export interface ProposedChange {
  method: 'POST' | 'PUT' | 'DELETE';
  /** The call's path, e.g. `/api/v1/namespaces/prod/flags/checkout`. */
  path: string;
  /** The call's JSON body; absent for a DELETE. */
  body?: unknown;
}

/** Something that happened to a request: an approval (of a digest), a rejection, a comment. */
export interface ChangeRequestEvent {
  kind: 'approved' | 'rejected' | 'commented';
  /** The digest the event was about. */
  digest: string;
  comment: string;
  actor?: Actor;
  at: string;
}

export interface ChangeRequest {
  id: string;
  namespaceKey: string;
  title: string;
  description: string;
  state: ChangeRequestState;
  changes: ProposedChange[];
  /** Hex SHA-256 of the changes' canonical JSON: an approval is of one digest. */
  digest: string;
  author?: Actor;
  /** The approvals of the current digest; replacing the changes voids them. */
  approvals: ChangeRequestEvent[];
  /** Every approval, rejection and comment, oldest first. */
  events: ChangeRequestEvent[];
  /** When a scheduled request is to be applied. */
  applyAt?: string;
  /** Why a scheduled apply did not happen (a conflict at its time). */
  suspendedReason?: string;
  /** The revision it was applied at. */
  appliedRevision?: number;
  createdAt: string;
  updatedAt: string;
}

/** The canonical JSON text of a list of changes (keys sorted at every depth), which their digest is the hash of. */
export const canonicalChanges = (changes: readonly ProposedChange[]): string => JSON.stringify(sortKeysDeep(changes));
