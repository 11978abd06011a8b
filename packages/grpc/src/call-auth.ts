/**
 * Who makes a gRPC call, by the access policy of the HTTP transports: the credential is the
 * `authorization` metadata (`Bearer <client token>`, a bearer value shaped as a JWT tried as one, or
 * `JWT <jwt>`), resolved by the surface's resolver. gRPC carries no cookies, so there is no browser
 * session (and no CSRF token) here.
 */
import { type AccessPolicy, type Caller, type Credential, extractCredential } from '@ensign/auth';
import { assertWritable, MANAGEMENT_OPERATIONS, type ManagementOperation, type ManagementOperationName } from '@ensign/core';
import type { ChangePolicies, OperationGuard } from '@ensign/control-plane';
import type { GrpcSurface } from './grpc-binding.js';

/** Resolves a credential to its caller; undefined for none, a 401 AppError when not valid (`Authenticator` does this). */
export interface CredentialResolver {
  authenticate(credential: Credential): Promise<Caller | undefined>;
}

export interface CallAuthOptions {
  /** `authentication.required` and `exclude.*`: which surfaces need a credential, and where a scoped token may go. */
  policy: AccessPolicy;
  /** Resolves management and authentication-API credentials (the control plane: the store is the authority). */
  authenticator: CredentialResolver;
  /**
   * Resolves evaluation and OFREP credentials, as the evaluation routes do (against the live digest
   * set, no database on the way); `authenticator` when not set.
   */
  evaluationAuthenticator?: CredentialResolver;
  /** `authorization.required`: management methods (named as core's operations) are checked before their handler. */
  authorization?: OperationGuard;
  /** Change policies: a direct write to a protected namespace is refused, as over HTTP. */
  protection?: ChangePolicies;
}

const isOperation = (name: string): name is ManagementOperationName => Object.hasOwn(MANAGEMENT_OPERATIONS, name);

/**
 * The operation a management method runs, with the namespace its message names (as its handler
 * reads it): a namespace's own `key`, else `namespaceKey` (`""` = default); none for listing
 * namespaces and for the authentication API. Undefined for methods outside authorization (Flipt's
 * legacy Evaluate, `…Self`).
 */
export function grpcOperationOf(name: string, request: Record<string, unknown>): ManagementOperation | undefined {
  if (!isOperation(name)) return undefined;
  const kinds = MANAGEMENT_OPERATIONS[name];
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (name === 'ListNamespaces' || kinds.some((k) => k.resource === 'authentication')) return { name, namespace: undefined };
  if (kinds.some((k) => k.resource === 'namespace' && k.subject === 'namespace') && !('namespaceKey' in request)) return { name, namespace: text(request.key) };
  const namespace = text(request.namespaceKey);
  return { name, namespace: namespace === '' ? 'default' : namespace };
}

/** The credential of a call's `authorization` metadata; the prefixes are exact, as over HTTP. */
export const credentialOf = (authorization: string | undefined): Credential =>
  extractCredential(authorization === undefined ? {} : { authorization });

/** Decides, per call, who is calling; rejects with the same 401 as the HTTP routes. */
export class CallAuth {
  constructor(private readonly options: CallAuthOptions) {}

  /** The policy calls are judged by (the server also holds scoped callers to their namespace with it). */
  get policy(): AccessPolicy {
    return this.options.policy;
  }

  /** With authorization configured, throws PermissionDenied unless the caller may run management method `name`. */
  async authorize(surface: GrpcSurface, name: string, request: Record<string, unknown>, caller: Caller | undefined): Promise<void> {
    const { authorization: guard, protection } = this.options;
    if (surface !== 'management' && surface !== 'auth') return;
    const operation = grpcOperationOf(name, request);
    if (operation === undefined) return;
    if (guard !== undefined) await guard.check(caller, operation);
    const namespace = operation.namespace ?? 'default';
    if (protection !== undefined) await assertWritable({ policies: protection, guard }, caller, name, namespace);
  }

  /** The caller of a call on `surface` presenting `authorization`; undefined when none is needed and none was resolved. */
  async callerOf(surface: GrpcSurface, authorization: string | undefined): Promise<Caller | undefined> {
    const resolver = surface === 'evaluation' || surface === 'ofrep' ? (this.options.evaluationAuthenticator ?? this.options.authenticator) : this.options.authenticator;
    return this.options.policy.callerOf(surface, () => resolver.authenticate(credentialOf(authorization)));
  }
}
