/**
 * What the session may do, from `GET /api/v1/permissions`: the answer read defensively, and the
 * abilities the UI offers (each a control that makes one kind of call) checked against it, with the
 * grants Flipt-style authorization asks for that call (`@ensign/core`'s operation catalog).
 */
import { AUTHZ_ACTIONS, type AuthzAction, type AuthzResource, type Permissions } from '@ensign/core';

/** What a server that cannot say (no route, or the request failed) is taken to allow: everything, as a server without authorization does. */
export const UNRESTRICTED: Permissions = Object.freeze({ authorizationRequired: false, namespaces: {}, authentication: [...AUTHZ_ACTIONS] });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const actionsOf = (value: unknown): AuthzAction[] => (Array.isArray(value) ? AUTHZ_ACTIONS.filter((action) => value.includes(action)) : []);

/** Ensign's actions on a namespace's change requests: approving another's, and writing past the namespace's policy. */
const CHANGE_REQUEST_ACTIONS: readonly string[] = ['approve', 'bypass'];
const namespaceActionsOf = (value: unknown): AuthzAction[] =>
  Array.isArray(value) ? [...actionsOf(value), ...(CHANGE_REQUEST_ACTIONS.filter((action) => value.includes(action)) as AuthzAction[])] : [];

/** The `/api/v1/permissions` body, read defensively: anything odd grants nothing where authorization is on. */
export function permissionsOf(body: unknown): Permissions {
  if (!isRecord(body)) return UNRESTRICTED;
  const required = body['authorizationRequired'] === true;
  const namespaces: Permissions['namespaces'] = {};
  if (isRecord(body['namespaces'])) {
    for (const [key, grants] of Object.entries(body['namespaces'])) {
      const record = isRecord(grants) ? grants : {};
      namespaces[key] = { namespace: namespaceActionsOf(record['namespace']), flag: actionsOf(record['flag']), segment: actionsOf(record['segment']) };
    }
  }
  const authentication = body['authentication'] === undefined && !required ? [...AUTHZ_ACTIONS] : actionsOf(body['authentication']);
  return { authorizationRequired: required, namespaces, authentication };
}

type Need = readonly [AuthzResource, AuthzAction];

/** A control's call: the grants it needs, what it does (said after "can't"), and whether a read-only server refuses it too. */
export interface AbilitySpec {
  needs: readonly Need[];
  says: (ns: string) => string;
  /** Changes flags, segments or namespaces (a read-only server refuses it); tokens and reading are not. */
  writes: boolean;
}

const flagNeeds = (action: AuthzAction): Need[] => [['flag', action]];
const segmentNeeds = (action: AuthzAction): Need[] => [['segment', action]];
/** An import may create, replace and remove any flag or segment of the namespace: it is checked as all of that. */
const IMPORT_NEEDS: Need[] = (['create', 'update', 'delete'] as const).flatMap((action): Need[] => [['flag', action], ['segment', action]]);

const ability = (needs: readonly Need[], says: (ns: string) => string, writes = true): AbilitySpec => ({ needs, says, writes });

export const ABILITIES = {
  'flag.create': ability(flagNeeds('create'), (ns) => `create flags in ${ns}`),
  'flag.update': ability(flagNeeds('update'), (ns) => `edit flags in ${ns}`),
  'flag.delete': ability(flagNeeds('delete'), (ns) => `delete flags in ${ns}`),
  // A flag's scheduled changes are checked as updates of the flag.
  'schedule.create': ability(flagNeeds('update'), (ns) => `schedule flag changes in ${ns}`),
  'schedule.cancel': ability(flagNeeds('update'), (ns) => `cancel scheduled changes in ${ns}`),
  'variant.create': ability(flagNeeds('create'), (ns) => `add variants in ${ns}`),
  'variant.update': ability(flagNeeds('update'), (ns) => `edit variants in ${ns}`),
  'variant.delete': ability(flagNeeds('delete'), (ns) => `delete variants in ${ns}`),
  // A new rule starts with an even split, and distributions are checked as the segment's (COMPAT(flipt): rpc/flipt/request.go).
  'rule.create': ability([...flagNeeds('create'), ...segmentNeeds('create')], (ns) => `add rules in ${ns}`),
  'rule.update': ability(flagNeeds('update'), (ns) => `edit rules in ${ns}`),
  'rule.delete': ability(flagNeeds('delete'), (ns) => `delete rules in ${ns}`),
  'rule.order': ability(flagNeeds('update'), (ns) => `reorder rules in ${ns}`),
  // Changing a split may create, update and delete distributions, each checked as the segment's.
  'distribution.update': ability([...segmentNeeds('create'), ...segmentNeeds('update'), ...segmentNeeds('delete')], (ns) => `change rule distributions in ${ns}`),
  'rollout.create': ability(flagNeeds('create'), (ns) => `add rollouts in ${ns}`),
  'rollout.update': ability(flagNeeds('update'), (ns) => `edit rollouts in ${ns}`),
  'rollout.delete': ability(flagNeeds('delete'), (ns) => `delete rollouts in ${ns}`),
  'rollout.order': ability(flagNeeds('update'), (ns) => `reorder rollouts in ${ns}`),
  'segment.create': ability(segmentNeeds('create'), (ns) => `create segments in ${ns}`),
  'segment.update': ability(segmentNeeds('update'), (ns) => `edit segments in ${ns}`),
  'segment.delete': ability(segmentNeeds('delete'), (ns) => `delete segments in ${ns}`),
  'constraint.create': ability(segmentNeeds('create'), (ns) => `add constraints in ${ns}`),
  'constraint.update': ability(segmentNeeds('update'), (ns) => `edit constraints in ${ns}`),
  'constraint.delete': ability(segmentNeeds('delete'), (ns) => `delete constraints in ${ns}`),
  // Copies go through the target's import, after reading whether the key is free there.
  'flag.copy': ability([...IMPORT_NEEDS, ['flag', 'read']], () => 'copy flags to another namespace'),
  'segment.copy': ability([...IMPORT_NEEDS, ['segment', 'read']], () => 'copy segments to another namespace'),
  'namespace.create': ability([['namespace', 'create']], () => 'create namespaces'),
  'namespace.update': ability([['namespace', 'update']], (ns) => `edit the namespace ${ns}`),
  'namespace.delete': ability([['namespace', 'delete']], (ns) => `delete the namespace ${ns}`),
  'namespace.import': ability(IMPORT_NEEDS, (ns) => `import into ${ns}`),
  'namespace.export': ability([['flag', 'read'], ['segment', 'read']], (ns) => `export ${ns}`, false),
  'token.read': ability([['authentication', 'read']], () => 'see API tokens', false),
  'token.create': ability([['authentication', 'create']], () => 'create API tokens', false),
  'token.delete': ability([['authentication', 'delete']], () => 'delete API tokens', false),
} as const satisfies Record<string, AbilitySpec>;

export type Ability = keyof typeof ABILITIES;

/** Whether the session holds `action` on `resource` in namespace `ns` (tokens are about no namespace). */
export function granted(permissions: Permissions, resource: AuthzResource, action: AuthzAction, ns: string | undefined): boolean {
  // Tokens are listed even without authorization: a namespace-scoped session may not use them.
  if (resource === 'authentication') return permissions.authentication.includes(action);
  if (!permissions.authorizationRequired) return true;
  return ns !== undefined && (permissions.namespaces[ns]?.[resource] ?? []).includes(action);
}

/**
 * Whether the session may create a namespace. The new key is in no answer: a grant in every
 * namespace listed stands for a rule tied to none (a role's `*`), which is what a new key needs.
 */
export function createsNamespaces(permissions: Permissions): boolean {
  if (!permissions.authorizationRequired) return true;
  const keys = Object.keys(permissions.namespaces);
  return keys.length > 0 && keys.every((key) => granted(permissions, 'namespace', 'create', key));
}

/** Whether the session may do `what` in namespace `ns`. */
export function allows(permissions: Permissions, what: Ability, ns?: string): boolean {
  if (what === 'namespace.create') return createsNamespaces(permissions);
  return ABILITIES[what].needs.every(([resource, action]) => granted(permissions, resource, action, ns));
}

const holds = (permissions: Permissions, ns: string, action: string): boolean => (permissions.namespaces[ns]?.namespace ?? []).includes(action as AuthzAction);

/** Whether the session may approve (or reject) others' change requests in `ns`: anyone may without authorization. */
export const mayApprove = (permissions: Permissions, ns: string): boolean => !permissions.authorizationRequired || holds(permissions, ns, 'approve');

/** Whether the session may write directly to `ns` although it is protected: nobody without authorization. */
export const mayBypassPolicy = (permissions: Permissions, ns: string): boolean => permissions.authorizationRequired && holds(permissions, ns, 'bypass');
