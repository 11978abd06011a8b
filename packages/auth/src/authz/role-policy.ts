/**
 * Flipt's reference role policy (rbac.rego over rbac.json) decided natively, without Rego: the data
 * is compiled once into maps, so a decision is a few Map/Set lookups per role.
 */
import { AUTHZ_ACTIONS, AUTHZ_RESOURCES, type AuthorizationInput } from '@ensign/core';
import type { PolicyEngine } from './policy-engine.js';
import { parseRoleData, validateRoleData, type RoleData } from './role-data.js';

/** The metadata key rbac.rego reads the caller's role from (JWT claims with this name are copied there). */
export const ROLE_METADATA_KEY = 'io.flipt.auth.role';

/**
 * Roles a caller holds beyond the metadata one, worked out elsewhere (a mapping from OIDC claims,
 * email or groups, or a GitHub organization or team). Called on every decision: keep it cheap.
 */
export type RoleResolver = (input: AuthorizationInput) => readonly string[];

/** How a RolePolicy finds roles beyond the metadata one. */
export interface RolePolicyOptions {
  /** Extra roles for each caller, added to `io.flipt.auth.role`. */
  extraRoles?: RoleResolver;
}

/** resource → actions granted on it. */
type Grants = Map<string, Set<string>>;

interface CompiledRole {
  /** Rules without a namespace (or with `*`). */
  everywhere: Grants;
  /** Rules restricted to one namespace, by namespace. */
  byNamespace: Map<string, Grants>;
  /** What `viewableNamespaces` answers for this role alone. */
  viewable: readonly string[] | undefined;
}

const NO_NAMESPACES: readonly string[] = Object.freeze([]);

/** What a rule's `*` action grants: Flipt's actions and approving change requests; bypassing a change policy is only ever named. */
const WILDCARD_ACTIONS: readonly string[] = [...AUTHZ_ACTIONS, 'approve'];

/** The native engine for role data: no Rego, decisions in a few lookups. */
export class RolePolicy implements PolicyEngine {
  private readonly roles: ReadonlyMap<string, CompiledRole>;
  private readonly resolver: RoleResolver | undefined;

  constructor(data: RoleData, options: RolePolicyOptions = {}) {
    this.roles = compile(validateRoleData(data, 'role data'));
    this.resolver = options.extraRoles;
  }

  /** Parses and checks role data text (errors name `file` and the line), then compiles it. */
  static fromText(text: string, file = 'data.json', options: RolePolicyOptions = {}): RolePolicy {
    return new RolePolicy(parseRoleData(text, file), options);
  }

  /** Whether the data defines a role of that name. */
  hasRole(name: string): boolean {
    return this.roles.has(name);
  }

  /** Allowed when any of the caller's roles has a rule matching resource, action and namespace. */
  allow(input: AuthorizationInput, extraRoles?: readonly string[]): boolean {
    const { namespace, resource, action } = input.request;
    const own = input.authentication.metadata[ROLE_METADATA_KEY];
    if (own !== undefined && this.roleAllows(own, namespace, resource, action)) return true;
    if (this.resolver !== undefined) {
      for (const name of this.resolver(input)) if (this.roleAllows(name, namespace, resource, action)) return true;
    }
    if (extraRoles !== undefined) {
      for (const name of extraRoles) if (this.roleAllows(name, namespace, resource, action)) return true;
    }
    return false;
  }

  /**
   * The namespaces the caller's roles are restricted to; undefined (all) when a role reads
   * namespaces without restriction; empty when the caller holds no known role.
   */
  viewableNamespaces(input: AuthorizationInput, extraRoles?: readonly string[]): readonly string[] | undefined {
    const names: string[] = [];
    const own = input.authentication.metadata[ROLE_METADATA_KEY];
    if (own !== undefined) names.push(own);
    if (this.resolver !== undefined) names.push(...this.resolver(input));
    if (extraRoles !== undefined) names.push(...extraRoles);
    let single: readonly string[] | undefined = NO_NAMESPACES;
    let union: Set<string> | undefined;
    let known = 0;
    for (const name of names) {
      const role = this.roles.get(name);
      if (role === undefined) continue;
      if (role.viewable === undefined) return undefined;
      if (known++ === 0) {
        single = role.viewable;
        continue;
      }
      union ??= new Set(single);
      for (const ns of role.viewable) union.add(ns);
    }
    return union === undefined ? single : Object.freeze([...union].sort());
  }

  private roleAllows(name: string, namespace: string | undefined, resource: string, action: string): boolean {
    const role = this.roles.get(name);
    if (role === undefined) return false;
    if (role.everywhere.get(resource)?.has(action) === true) return true;
    return namespace !== undefined && role.byNamespace.get(namespace)?.get(resource)?.has(action) === true;
  }
}

/** Expands `*` over Flipt's resources and actions, and merges roles of the same name (Rego matches each). */
function compile(data: RoleData): Map<string, CompiledRole> {
  const roles = new Map<string, CompiledRole>();
  const rulesOf = new Map<string, RoleData['roles'][number]['rules']>();
  for (const role of data.roles) rulesOf.set(role.name, [...(rulesOf.get(role.name) ?? []), ...role.rules]);
  for (const [name, rules] of rulesOf) {
    const compiled: CompiledRole = { everywhere: new Map(), byNamespace: new Map(), viewable: undefined };
    const namespaces = new Set<string>();
    let readsAllNamespaces = false;
    for (const rule of rules) {
      if (rule.actions.length === 0) continue;
      const resources: readonly string[] = rule.resource === '*' ? AUTHZ_RESOURCES : [rule.resource];
      const actions: readonly string[] = rule.actions.includes('*') ? WILDCARD_ACTIONS : rule.actions;
      // COMPAT(flipt): rbac.rego's permit_string lets a `*` namespace match any request, even one without a namespace.
      const everywhere = rule.namespace === undefined || rule.namespace === '*';
      let grants = compiled.everywhere;
      if (!everywhere) {
        const ns = rule.namespace as string;
        namespaces.add(ns);
        grants = compiled.byNamespace.get(ns) ?? new Map();
        compiled.byNamespace.set(ns, grants);
      }
      for (const resource of resources) {
        const set = grants.get(resource) ?? new Set<string>();
        for (const action of actions) set.add(action);
        grants.set(resource, set);
      }
      if (everywhere && (rule.resource === '*' || rule.resource === 'namespace') && actions.includes('read')) readsAllNamespaces = true;
    }
    compiled.viewable = readsAllNamespaces ? undefined : Object.freeze([...namespaces].sort());
    roles.set(name, compiled);
  }
  return roles;
}
