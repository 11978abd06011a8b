/**
 * Roles from who the caller is, for callers whose credential carries no `io.flipt.auth.role`: an
 * OIDC user by email or ID-token claim, a code-host user by organization or team. A mapping gives
 * its role when every criterion it names matches (within one criterion, any listed value does).
 */
import type { AuthorizationInput } from '@ensign/core';
import type { RoleResolver } from './role-policy.js';

export interface RoleMapping {
  role: string;
  /** Email addresses, compared without case (OIDC's or the code host's). */
  emails?: readonly string[];
  /** ID-token claims: claim name → value; a claim holding a list matches when it contains the value. */
  claims?: Readonly<Record<string, string>>;
  /** Code-host organization logins. */
  organizations?: readonly string[];
  /** Code-host teams as `organization:team`. */
  teams?: readonly string[];
}

const EMAIL_KEYS = ['io.flipt.auth.email', 'io.flipt.auth.oidc.email', 'io.flipt.auth.github.email'];

interface Identity {
  email: string | undefined;
  claims: Record<string, unknown>;
  organizations: string[];
  teams: string[];
}

const parsed = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function identityOf(metadata: Readonly<Record<string, string>>): Identity {
  const email = EMAIL_KEYS.map((k) => metadata[k]).find((v) => v !== undefined && v !== '');
  const claims = parsed(metadata['io.flipt.auth.claims']);
  const organizations = parsed(metadata['io.flipt.auth.github.organizations']);
  const teams = parsed(metadata['io.flipt.auth.github.teams']);
  return {
    email: email?.toLowerCase(),
    claims: typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : {},
    organizations: Array.isArray(organizations) ? organizations.filter((o): o is string => typeof o === 'string') : [],
    teams:
      typeof teams === 'object' && teams !== null
        ? Object.entries(teams as Record<string, unknown>).flatMap(([org, slugs]) => (Array.isArray(slugs) ? slugs.filter((s): s is string => typeof s === 'string').map((s) => `${org}:${s}`) : []))
        : [],
  };
}

const claimMatches = (value: unknown, wanted: string): boolean => (Array.isArray(value) ? value.some((v) => String(v) === wanted) : value !== undefined && value !== null && String(value) === wanted);

function matches(mapping: RoleMapping, who: Identity): boolean {
  const { emails, claims, organizations, teams } = mapping;
  if (emails === undefined && claims === undefined && organizations === undefined && teams === undefined) return false;
  if (emails !== undefined && (who.email === undefined || !emails.some((e) => e.toLowerCase() === who.email))) return false;
  if (claims !== undefined && !Object.entries(claims).every(([name, wanted]) => claimMatches(who.claims[name], wanted))) return false;
  if (organizations !== undefined && !organizations.some((o) => who.organizations.includes(o))) return false;
  if (teams !== undefined && !teams.some((t) => who.teams.includes(t))) return false;
  return true;
}

/** The resolver of `mappings`; an identity is read once per credential's metadata object. */
export function roleMappingResolver(mappings: readonly RoleMapping[]): RoleResolver {
  if (mappings.length === 0) return () => [];
  const seen = new WeakMap<object, readonly string[]>();
  return (input: AuthorizationInput) => {
    const metadata = input.authentication.metadata;
    const known = seen.get(metadata);
    if (known !== undefined) return known;
    const who = identityOf(metadata);
    const roles = mappings.filter((m) => matches(m, who)).map((m) => m.role);
    seen.set(metadata, roles);
    return roles;
  };
}
