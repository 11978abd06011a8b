/**
 * The authorization benchmark's workload: Flipt's example role data, a few token callers of each
 * role, and every management operation of core's catalog in two namespaces, sorted into the calls
 * the data allows and those it refuses (decided once by the engine under test itself).
 */
import { Code, isAppError, MANAGEMENT_OPERATIONS, type ManagementOperation, type ManagementOperationName } from '@ensign/core';
import { type Caller, ManagementAuthorization, RolePolicy } from '@ensign/auth';
import { FLIPT_EXAMPLE_ROLES, seeded } from '@ensign/testkit';

/** Flipt's example data (its authorization engine's rbac.json), as text. */
export const FLIPT_ROLE_DATA = JSON.stringify(FLIPT_EXAMPLE_ROLES);

export const ROLES = ['admin', 'editor', 'viewer', 'namespaced_viewer'] as const;
export type Role = (typeof ROLES)[number];

/** One management call: who makes it and what it is. */
export interface Call {
  role: Role | 'nobody' | 'unauthenticated';
  caller: Caller | undefined;
  operation: ManagementOperation;
}

/** Callers per role, so the calls do not all carry the same object (the server makes one a request). */
const CALLERS_PER_ROLE = 4;

function tokenCaller(role: string, i: number): Caller {
  const createdAt = '2026-11-01T00:00:00Z';
  return {
    method: 'METHOD_TOKEN',
    via: 'bearer',
    authentication: {
      id: `${role}-${i}-0000-4000-8000-000000000000`,
      method: 'METHOD_TOKEN',
      createdAt,
      updatedAt: createdAt,
      metadata: { 'io.flipt.auth.role': role, 'io.flipt.auth.token.name': `${role} ${i}` },
    },
  };
}

/** Authentication's operations are about no namespace; the others run in `default` and in `foo`. */
function operationsOf(name: ManagementOperationName): ManagementOperation[] {
  if (MANAGEMENT_OPERATIONS[name].some((kind) => kind.resource === 'authentication')) return [{ name, namespace: undefined }];
  return [
    { name, namespace: 'default' },
    { name, namespace: 'foo' },
  ];
}

/**
 * Every operation but ListNamespaces (which is never checked, only filtered) in both namespaces.
 * NOTE: each operation counts once, whether it makes one check (most) or six (ImportNamespace).
 */
export const OPERATIONS: readonly ManagementOperation[] = (Object.keys(MANAGEMENT_OPERATIONS) as ManagementOperationName[])
  .filter((name) => name !== 'ListNamespaces')
  .flatMap(operationsOf);

/** Whether `authorization` lets the call through (it answers synchronously for the role policy). */
export function allows(authorization: ManagementAuthorization, call: Pick<Call, 'caller' | 'operation'>): boolean {
  try {
    const answer = authorization.check(call.caller, call.operation);
    if (answer !== undefined) throw new Error('the role policy answered asynchronously');
    return true;
  } catch (err) {
    if (!isAppError(err) || err.code !== Code.PermissionDenied) throw err;
    return false;
  }
}

export interface CallPools {
  /** Allowed calls, by role. */
  allowed: Record<Role, Call[]>;
  /** Refused calls: every role's, an unknown role's and an authentication-less caller's. */
  denied: Call[];
}

/** Every (role, operation) pair, sorted by what Flipt's example data decides. */
export function callPools(): CallPools {
  const referee = new ManagementAuthorization({ engine: () => RolePolicy.fromText(FLIPT_ROLE_DATA) });
  const allowed = Object.fromEntries(ROLES.map((role) => [role, [] as Call[]])) as Record<Role, Call[]>;
  const denied: Call[] = [];
  for (const role of [...ROLES, 'nobody'] as const) {
    OPERATIONS.forEach((operation, i) => {
      const call: Call = { role, caller: tokenCaller(role, i % CALLERS_PER_ROLE), operation };
      if (role !== 'nobody' && allows(referee, call)) allowed[role].push(call);
      else denied.push(call);
    });
  }
  for (const operation of OPERATIONS.slice(0, 8)) denied.push({ role: 'unauthenticated', caller: { method: 'METHOD_TOKEN', via: 'bearer' }, operation });
  return { allowed, denied };
}

/** `size` calls drawn at random (seeded) from `pool`, so the order defeats no cache and every run is alike. */
export function drawn(pool: readonly Call[], size: number, seed: number): Call[] {
  const random = seeded(seed);
  return Array.from({ length: size }, () => pool[Math.floor(random() * pool.length)]!);
}
