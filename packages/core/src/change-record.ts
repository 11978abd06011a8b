/**
 * What one committed write did, as the store reports it: the single record that feeds the
 * evaluation snapshots, the read-cache invalidation, the audit trail, webhooks and streams.
 */

/**
 * Every action a change record can name; `imported` is a whole import into a namespace, recorded on
 * the namespace; `stepped` is a flag's schedule, window edge or ramp step taking effect.
 */
export const CHANGE_ACTIONS = ['created', 'updated', 'deleted', 'reordered', 'imported', 'stepped'] as const;

/** What the write did to its resource. */
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** Every kind of resource a change record can be about. */
export const CHANGE_RESOURCES = ['namespace', 'flag', 'variant', 'segment', 'constraint', 'rule', 'distribution', 'rollout', 'schedule'] as const;

/** The kind of resource a change record is about. */
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];

/**
 * Who made a change, from the request's authentication; absent when authentication is off. A
 * `stepped` change's actor is the step itself (method `METHOD_SCHEDULE`); who set it up is in its `after`.
 */
export interface Actor {
  /** The authentication's id. */
  authenticationId: string;
  /** The authentication method, in Flipt's spelling (`METHOD_TOKEN`, `METHOD_OIDC`, …). */
  method: string;
  /** A name to show: the token's name, the user's email or login, the service account. */
  name?: string;
}

/** The change request a write was made by: its id and title, who wrote it and who approved what was applied. */
export interface ChangeRequestRef {
  id: string;
  title: string;
  author?: Actor;
  approvers: Actor[];
}

/** One committed write. */
export interface ChangeRecord {
  namespaceKey: string;
  /** The namespace's revision after the write. */
  revision: number;
  resource: ChangeResource;
  /** The resource's key (namespace, flag, segment) or id (variant, constraint, rule, distribution, rollout). */
  key: string;
  /** The flag or segment the resource belongs to, for variants, rules, distributions, rollouts and constraints. */
  parentKey?: string;
  action: ChangeAction;
  /** The resource as it was; absent for a creation. */
  before?: unknown;
  /** The resource as written; absent for a deletion. */
  after?: unknown;
  actor?: Actor;
  /** Set when the write is part of an applied change request. */
  changeRequest?: ChangeRequestRef;
  /** When the write was made, UTC ISO-8601 (the stored `updatedAt`). */
  at: string;
}
