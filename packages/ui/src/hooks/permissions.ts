/**
 * What the session may do (`/api/v1/permissions`), and whether a control is locked. The shell
 * waits for the first answer, so a control the service would refuse is never offered, not even for
 * a moment; the answer is asked again when the namespace changes and after any refusal (403), and
 * afresh for each session (signing in or out clears the cache). A server that cannot say is taken
 * to check nothing beyond authentication: its refusals still show where they happen.
 */
import type { Permissions } from '@ensign/core';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from '../api/client.js';
import { permissions as permissionsApi } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { useSession } from '../auth/session.js';
import { deniedHint, roleOf } from '../lib/permission-wording.js';
import { ABILITIES, type Ability, allows, UNRESTRICTED } from '../lib/permissions.js';
import { type ReadOnly, useReadOnly } from './read-only.js';

/** A control's state: locked (`on`) with the reason for its tooltip, or free. The same shape as `ReadOnly`. */
export type Lock = ReadOnly;

const FREE: Lock = { on: false, hint: undefined };

export function usePermissionsQuery() {
  const { state } = useSession();
  // Asked only of a session that can answer: not while one is being checked or ended, when the
  // shell may still be mounted for a moment and the answer would be a refusal for nothing.
  return useQuery({ queryKey: queryKeys.permissions, queryFn: permissionsApi.get, enabled: state.kind === 'signed-in' || state.kind === 'open' });
}

/** The session's permissions; unrestricted while unknown or when the server could not say. */
export function usePermissions(): Permissions {
  return usePermissionsQuery().data ?? UNRESTRICTED;
}

/** Asks again when the namespace worked in changes (the first is asked as the shell opens). */
export function useRefreshPermissionsOn(ns: string): void {
  const queries = useQueryClient();
  const asked = useRef(ns);
  useEffect(() => {
    if (asked.current === ns) return;
    asked.current = ns;
    void queries.invalidateQueries({ queryKey: queryKeys.permissions });
  }, [ns, queries]);
}

/** A 403 means what the UI knew of the session's permissions is out of date (its role changed): ask again. */
export function refreshPermissionsOnRefusal(queries: () => QueryClient): (error: unknown) => void {
  return (error) => {
    if (error instanceof ApiError && error.status === 403) void queries().invalidateQueries({ queryKey: queryKeys.permissions });
  };
}

/** The role the signed-in session's authentication names, for the reasons' wording. */
export function useRole(): string | undefined {
  const { state } = useSession();
  return state.kind === 'signed-in' ? roleOf(state.authentication.metadata) : undefined;
}

/**
 * Tells whether a control for `what` in namespace `ns` is locked, and why: a read-only server
 * first (for what writes flags, segments or namespaces), then the session's permissions. For rows
 * of several namespaces; `useLock` for one control.
 */
export function useLocks(): (what: Ability, ns?: string) => Lock {
  const readOnly = useReadOnly();
  const permissions = usePermissions();
  const role = useRole();
  return useCallback(
    (what: Ability, ns?: string): Lock => {
      if (ABILITIES[what].writes && readOnly.on) return readOnly;
      if (allows(permissions, what, ns)) return FREE;
      return { on: true, hint: deniedHint(role, what, ns ?? '') };
    },
    [readOnly, permissions, role],
  );
}

/** Whether the control for `what` in namespace `ns` is locked, and why. */
export function useLock(what: Ability, ns?: string): Lock {
  return useLocks()(what, ns);
}
