/**
 * A call authorization refused, as Flipt's audit event with `status: "denied"`: the noun is the
 * call's subject, the verb its action, the payload what the call named. Reads are not audited (the
 * audit vocabulary has no verb for them), as in Flipt.
 */
import type { Denial } from '@ensign/auth';
import { AUTH_META, AUTH_METHODS } from '@ensign/core';
import { type AuditActor, type AuditEvent, type AuditType, authenticationOf, rfc3339 } from './audit-event.js';

const VERBS = { create: 'created', update: 'updated', delete: 'deleted', approve: 'approved', bypass: 'updated' } as const;

/** The audit event of a refusal; undefined for a refused read. */
export function toDeniedAuditEvent(denial: Denial, now: Date): AuditEvent | undefined {
  const { request, authentication } = denial.input;
  if (request.action === 'read') return undefined;
  const method = AUTH_METHODS[authentication.method];
  const actor: AuditActor = { authentication: authenticationOf(method === undefined || method === 'METHOD_NONE' ? undefined : { authenticationId: authentication.id, method }) };
  const email = authentication.metadata[AUTH_META.email];
  const name = authentication.metadata[AUTH_META.name] ?? authentication.metadata[AUTH_META.tokenName];
  if (email) actor.email = email;
  if (name) actor.name = name;
  return {
    version: '0.2',
    type: request.subject as AuditType,
    action: VERBS[request.action],
    metadata: { actor },
    payload: { namespace_key: request.namespace ?? '' },
    timestamp: rfc3339(now.toISOString(), () => now),
    status: 'denied',
  };
}
