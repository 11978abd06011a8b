/**
 * One management call as authorization, namespace scoping and auditing see it, in Flipt's
 * vocabulary (rpc/flipt/request.go): what it acts on (resource and subject), how, and where.
 */

export const AUTHZ_RESOURCES = ['namespace', 'flag', 'segment', 'authentication'] as const;
export type AuthzResource = (typeof AUTHZ_RESOURCES)[number];

/** Flipt's subjects, and Ensign's `change_request` (approving a request, bypassing a namespace's change policy). */
export const AUTHZ_SUBJECTS = ['namespace', 'flag', 'variant', 'rule', 'rollout', 'segment', 'constraint', 'distribution', 'token', 'change_request'] as const;
export type AuthzSubject = (typeof AUTHZ_SUBJECTS)[number];

/** Flipt's actions: what a role's `*` grants. */
export const AUTHZ_ACTIONS = ['create', 'read', 'update', 'delete'] as const;

/**
 * Ensign's actions on a namespace's change requests (subject `change_request`): `approve` another's
 * request, and `bypass` the namespace's change policy with a direct write. A role's `*` grants
 * `approve` but never `bypass`, which a role names to hold.
 */
export const CHANGE_REQUEST_ACTIONS = ['approve', 'bypass'] as const;
export type ChangeRequestAction = (typeof CHANGE_REQUEST_ACTIONS)[number];

export type AuthzAction = (typeof AUTHZ_ACTIONS)[number] | ChangeRequestAction;

/** What a management call does, before the namespace it touches is known. */
export interface ManagementKind {
  resource: AuthzResource;
  subject: AuthzSubject;
  action: AuthzAction;
}

/** A management call decoded: its kind and the namespace it touches (undefined: none, as listing namespaces). */
export interface ManagementRequest extends ManagementKind {
  namespace: string | undefined;
}

/**
 * Flipt's authorization input document (`input` of `data.flipt.authz.v1.allow`): the request,
 * with `status` "success" (or "denied" in the audit event of a refusal), and the caller.
 */
export interface AuthorizationInput {
  request: { namespace?: string; resource: AuthzResource; subject: AuthzSubject; action: AuthzAction; status: 'success' | 'denied' };
  authentication: {
    id: string;
    /** Flipt's numeric method: TOKEN 1, OIDC 2, KUBERNETES 3, GITHUB 4, JWT 5. */
    method: number;
    expires_at?: string;
    created_at?: string;
    metadata: Record<string, string>;
  };
}

/** The resources granted per namespace (authentication is not per namespace). */
export type NamespacedResource = Exclude<AuthzResource, 'authentication'>;

/** What a caller may do (`GET /api/v1/permissions`): the actions it is granted on each resource. */
export interface Permissions {
  /** Whether `authorization.required` is on; when off, every action is granted wherever the caller may go. */
  authorizationRequired: boolean;
  /** By namespace key: the namespaces the caller may view. */
  namespaces: Record<string, Record<NamespacedResource, AuthzAction[]>>;
  /** On tokens (`/auth/v1`); none for a namespace-scoped token, which may not use that API. */
  authentication: AuthzAction[];
}
