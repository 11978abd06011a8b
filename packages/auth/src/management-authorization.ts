/**
 * Authorization of management calls (`authorization.required`): each operation's checks are put to
 * the policy engine as Flipt's input document, all of which must pass. Listing namespaces is always
 * allowed and filtered by what the policy says the caller may view.
 */
import {
  AUTH_METHODS,
  AUTHZ_ACTIONS,
  CHANGE_REQUEST_ACTIONS,
  type AuthorizationInput,
  type AuthzAction,
  type AuthzResource,
  type AuthzSubject,
  checksOf,
  type ManagementKind,
  type ManagementOperation,
  type NamespacedResource,
  permissionDenied,
} from '@ensign/core';
import type { PolicyEngine } from './authz/policy-engine.js';
import type { Caller } from './caller.js';

/** A refused call, as the audit trail records it. */
export interface Denial {
  operation: ManagementOperation;
  input: AuthorizationInput;
}

export interface ManagementAuthorizationOptions {
  /** The engine deciding now (a reload of the policy files swaps it). */
  engine: () => PolicyEngine;
  /** Hears every refusal (audit sinks). */
  onDenied?: (denial: Denial) => void;
}

/** Flipt's `request.namespace`: a call about no namespace in particular is checked in `default`, but listing namespaces names none. */
const namespaceOf = (operation: ManagementOperation): string | undefined =>
  operation.namespace ?? (operation.name === 'ListNamespaces' ? undefined : 'default');

/** The `authentication` half of the input document; undefined without a caller. */
export function authenticationInput(caller: Caller | undefined): AuthorizationInput['authentication'] | undefined {
  const auth = caller?.authentication;
  if (caller === undefined || auth === undefined) return undefined;
  return {
    id: auth.id ?? '',
    method: AUTH_METHODS.indexOf(auth.method),
    ...(auth.expiresAt === undefined ? {} : { expires_at: auth.expiresAt }),
    created_at: auth.createdAt,
    metadata: auth.metadata,
  };
}

const NO_AUTHENTICATION: AuthorizationInput['authentication'] = { id: '', method: 0, metadata: {} };

/**
 * The `request` half of the input document. Plain literals of two fixed shapes: an object spread
 * followed by more properties gets a new hidden class on every call in V8, which made each check
 * cost microseconds and garbage.
 */
function requestOf(namespace: string | undefined, kind: ManagementKind, status: 'success' | 'denied'): AuthorizationInput['request'] {
  return namespace === undefined
    ? { resource: kind.resource, subject: kind.subject, action: kind.action, status }
    : { namespace, resource: kind.resource, subject: kind.subject, action: kind.action, status };
}

/** The subject a resource's own calls name (a flag's calls are about the flag, …). */
const SUBJECT_OF: Record<AuthzResource, AuthzSubject> = { namespace: 'namespace', flag: 'flag', segment: 'segment', authentication: 'token' };

export class ManagementAuthorization {
  /** Calls refused, and calls the engine could not decide (refused too, as Unavailable). */
  readonly counts = { denied: 0, failed: 0 };

  constructor(private readonly options: ManagementAuthorizationOptions) {}

  /**
   * Returns when the caller may run `operation` (synchronously when the engine answers so), throws
   * or rejects PermissionDenied when not, and Unavailable when the engine cannot answer.
   */
  check(caller: Caller | undefined, operation: ManagementOperation): void | Promise<void> {
    if (operation.name === 'ListNamespaces') return;
    const authentication = authenticationInput(caller);
    const namespace = namespaceOf(operation);
    const who = authentication ?? NO_AUTHENTICATION;
    const inputs = checksOf(operation.name).map((kind): AuthorizationInput => ({ request: requestOf(namespace, kind, 'success'), authentication: who }));
    if (authentication === undefined) return this.deny(operation, inputs[0]);
    const engine = this.options.engine();
    const answers = inputs.map((input) => engine.allow(input));
    if (answers.every((a): a is boolean => typeof a === 'boolean')) return this.settle(operation, inputs, answers);
    return Promise.all(answers).then(
      (settled) => this.settle(operation, inputs, settled),
      (err: unknown) => {
        this.counts.failed++;
        throw err;
      },
    );
  }

  /**
   * Whether the caller may run `operation`, asked quietly: nothing is counted or audited, for a
   * right that widens what a call may do (bypassing a change policy) rather than a call refused.
   */
  async allows(caller: Caller | undefined, operation: ManagementOperation): Promise<boolean> {
    const authentication = authenticationInput(caller);
    if (authentication === undefined) return false;
    const namespace = namespaceOf(operation);
    const engine = this.options.engine();
    const answers = await Promise.all(checksOf(operation.name).map((kind) => engine.allow({ request: requestOf(namespace, kind, 'success'), authentication })));
    return answers.every((a) => a === true);
  }

  /** The namespaces the caller may see when listing them; undefined: every one. */
  viewableNamespaces(caller: Caller | undefined): readonly string[] | undefined | Promise<readonly string[] | undefined> {
    const authentication = authenticationInput(caller);
    if (authentication === undefined) return [];
    return this.options.engine().viewableNamespaces({ request: { resource: 'namespace', subject: 'namespace', action: 'read', status: 'success' }, authentication });
  }

  /**
   * What the caller may do in each of `namespaces` (on the namespace, its flags and its segments)
   * and on tokens: every action put to the engine as a call on the resource's own subject would be.
   */
  async permissions(caller: Caller | undefined, namespaces: readonly string[]): Promise<{ namespaces: Record<string, Record<NamespacedResource, AuthzAction[]>>; authentication: AuthzAction[] }> {
    const authentication = authenticationInput(caller);
    const engine = this.options.engine();
    const granted = async (resource: AuthzResource, namespace: string): Promise<AuthzAction[]> => {
      if (authentication === undefined) return [];
      const subject = SUBJECT_OF[resource];
      const answers = await Promise.all(AUTHZ_ACTIONS.map((action) => engine.allow({ request: { namespace, resource, subject, action, status: 'success' }, authentication })));
      return AUTHZ_ACTIONS.filter((_, i) => answers[i] === true);
    };
    /** `approve` and `bypass` of the namespace's change requests, listed with the namespace's actions. */
    const changeRights = async (namespace: string): Promise<AuthzAction[]> => {
      if (authentication === undefined) return [];
      const answers = await Promise.all(CHANGE_REQUEST_ACTIONS.map((action) => engine.allow({ request: { namespace, resource: 'namespace', subject: 'change_request', action, status: 'success' }, authentication })));
      return CHANGE_REQUEST_ACTIONS.filter((_, i) => answers[i] === true);
    };
    const byNamespace: Record<string, Record<NamespacedResource, AuthzAction[]>> = {};
    for (const namespace of namespaces) {
      const [ns, rights, flag, segment] = await Promise.all([granted('namespace', namespace), changeRights(namespace), granted('flag', namespace), granted('segment', namespace)]);
      byNamespace[namespace] = { namespace: [...ns, ...rights], flag, segment };
    }
    return { namespaces: byNamespace, authentication: await granted('authentication', 'default') };
  }

  private settle(operation: ManagementOperation, inputs: AuthorizationInput[], answers: readonly boolean[]): void {
    const refused = answers.indexOf(false);
    if (refused >= 0) this.deny(operation, inputs[refused]);
  }

  private deny(operation: ManagementOperation, input: AuthorizationInput | undefined): never {
    this.counts.denied++;
    if (input !== undefined) {
      const { namespace, resource, subject, action } = input.request;
      this.options.onDenied?.({ operation, input: { request: requestOf(namespace, { resource, subject, action }, 'denied'), authentication: input.authentication } });
    }
    throw permissionDenied();
  }
}
