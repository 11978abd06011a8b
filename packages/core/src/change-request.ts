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
export const canonicalChanges = (changes: readonly ProposedChange[]): string => canonicalJson(changes);

/** JSON with every object's keys sorted at every depth: equal content, equal text. */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortKeysDeep(value));

/**
 * What a request was written against: each flag and segment its changes touch, whole, as it was
 * before them (canonical JSON; `null` when it did not exist), keyed `flag/<key>` or `segment/<key>`.
 */
export type ChangeBase = Record<string, string | null>;

/** A flag or segment a request touches that changed since the request was written: as it was then and as it is now. */
export interface ChangeConflict {
  resource: 'flag' | 'segment';
  key: string;
  was?: unknown;
  now?: unknown;
}

/** The flags and segments whose state `now` differs from `base`. */
export function conflictsWith(base: ChangeBase, now: ChangeBase): ChangeConflict[] {
  const conflicts: ChangeConflict[] = [];
  for (const [id, was] of Object.entries(base)) {
    const current = now[id] ?? null;
    if (was === current) continue;
    const slash = id.indexOf('/');
    conflicts.push({
      resource: id.slice(0, slash) as ChangeConflict['resource'],
      key: id.slice(slash + 1),
      ...(was === null ? {} : { was: JSON.parse(was) as unknown }),
      ...(current === null ? {} : { now: JSON.parse(current) as unknown }),
    });
  }
  return conflicts;
}

/** How a conflict is named in a refusal: `flag "checkout"`. */
export const describeConflict = (c: ChangeConflict): string => `${c.resource} ${JSON.stringify(c.key)}`;
