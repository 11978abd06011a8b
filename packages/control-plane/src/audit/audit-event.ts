/**
 * A change record as Flipt v1's audit event, version "0.2" (internal/server/audit/events.go), the
 * JSON every Flipt sink sends, plus Ensign's own `ensign` key.
 */
import type { Actor, ChangeRecord, ChangeRequestRef, ChangeResource } from '@ensign/core';
import { auditPayload } from './audit-payload.js';
import { sortKeysDeep } from './go-json.js';

/**
 * The nouns of Flipt's audit events: every change resource, and `token` (which Ensign does not
 * emit); `change_request` only on a refused approval.
 */
export type AuditType = ChangeResource | 'token' | 'change_request';

/** Flipt's event actions (an order request is an `updated` of its rules or rollouts); `approved` only on a refused approval. */
export type AuditAction = 'created' | 'updated' | 'deleted' | 'approved';

/** Flipt's actor; empty fields are left out as Go's omitempty does. */
export interface AuditActor {
  /** The authentication method in Flipt's spelling (`token`, `oidc`, …), `none` without one. */
  authentication: string;
  ip?: string;
  email?: string;
  name?: string;
  picture?: string;
}

/** Ensign's addition: what the change was and made, at which namespace revision. */
export interface EnsignAuditDetails {
  revision: number;
  /** The resource as it was (as the API returns it); absent for a creation. */
  before?: unknown;
  /** The resource as written; absent for a deletion. */
  after?: unknown;
  /** The applied change request the change was part of: its id, title, author and approvers. */
  changeRequest?: ChangeRequestRef;
}

/**
 * One audit event. Every field but `ensign` is Flipt's, in the order Flipt marshals them; `ensign`
 * carries the change's before/after and the namespace revision, which Flipt receivers ignore.
 */
export interface AuditEvent {
  version: '0.2';
  type: AuditType;
  action: AuditAction;
  metadata: { actor?: AuditActor };
  /** Flipt's snake_case projection of the resource (or request), keys sorted as Flipt's are. */
  payload: Record<string, unknown>;
  /** RFC 3339, whole seconds. */
  timestamp: string;
  /** `denied`: a call authorization refused (nothing was changed). */
  status: 'success' | 'denied';
  /** Absent on a refusal, which changed nothing. */
  ensign?: EnsignAuditDetails;
}

/**
 * `METHOD_TOKEN` → `token`, `METHOD_OIDC` → `oidc`…, `none` without an actor.
 * COMPAT(flipt): internal/server/authn/server.go lower-cases the method name without its prefix.
 */
export function authenticationOf(actor: Actor | undefined): string {
  if (actor === undefined) return 'none';
  return actor.method.replace(/^METHOD_/, '').toLowerCase();
}

/** RFC 3339 in UTC with whole seconds, as Go's `time.RFC3339` layout prints it. */
export function rfc3339(at: string, now: () => Date): string {
  const time = new Date(at);
  // A record always carries a valid time; should one not, stamp it now rather than throw on the write path.
  const when = Number.isNaN(time.getTime()) ? now() : time;
  return when.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * Flipt's verb for a change: an order request is an update of its rules (rollouts), an import
 * (Flipt's importer makes one event per resource) an update of the namespace it filled, and a
 * step taking effect an update of its flag.
 */
const auditActionOf = (action: ChangeRecord['action']): AuditAction =>
  action === 'reordered' || action === 'imported' || action === 'stepped' ? 'updated' : action;

/** The audit event Flipt would send for this change; `now` stamps a record whose `at` is unreadable. */
export function toAuditEvent(record: ChangeRecord, now: () => Date = () => new Date()): AuditEvent {
  const actor: AuditActor = { authentication: authenticationOf(record.actor) };
  if (record.actor?.name) actor.name = record.actor.name;
  const ensign: EnsignAuditDetails = { revision: record.revision };
  if (record.before !== undefined) ensign.before = record.before;
  if (record.after !== undefined) ensign.after = record.after;
  if (record.changeRequest !== undefined) ensign.changeRequest = record.changeRequest;
  return {
    version: '0.2',
    type: record.resource,
    action: auditActionOf(record.action),
    metadata: { actor },
    payload: sortKeysDeep(auditPayload(record)) as Record<string, unknown>,
    timestamp: rfc3339(record.at, now),
    status: 'success',
    ensign,
  };
}

/** The event without Ensign's key: what a Flipt template sees as `.`. */
export function fliptView(event: AuditEvent): Omit<AuditEvent, 'ensign'> {
  const { ensign: _ensign, ...flipt } = event;
  return flipt;
}
