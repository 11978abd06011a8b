/**
 * `GET /api/v1/permissions` (Ensign's own): what the caller may do, per namespace it may view and
 * on tokens, so the UI offers only what will be allowed. Any caller may ask about itself (as
 * `/auth/v1/self`); a namespace-scoped token hears about its namespace only.
 */
import { AUTHZ_ACTIONS, type AuthzAction, type NamespacedResource, type Permissions } from '@ensign/core';
import type { Caller } from '@ensign/auth';
import type { OperationGuard } from '../../auth/operation-guard.js';
import type { AppRouter } from '../../http/app-state.js';
import { queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import type { NamespaceRepository } from '../namespaces/namespace.repository.js';

const PAGE = 500;

/** Every namespace key, in the list's order. */
async function allKeys(namespaces: NamespaceRepository): Promise<string[]> {
  const keys: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await namespaces.list({ limit: PAGE, offset });
    keys.push(...page.items.map((n) => n.key));
    if (page.items.length < PAGE) return keys;
  }
}

/** Without authorization: every action, and approving others' change requests; nobody bypasses a change policy. */
const everything = (): Record<NamespacedResource, AuthzAction[]> => ({ namespace: [...AUTHZ_ACTIONS, 'approve'], flag: [...AUTHZ_ACTIONS], segment: [...AUTHZ_ACTIONS] });

/** The namespaces the caller may see, optionally narrowed to one (`?namespace=`). */
async function visible(caller: Caller | undefined, guard: OperationGuard | undefined, namespaces: NamespaceRepository, only: string | undefined): Promise<string[]> {
  let keys = await allKeys(namespaces);
  if (caller?.namespace !== undefined) keys = keys.filter((k) => k === caller.namespace);
  const viewable = await guard?.viewableNamespaces(caller);
  if (viewable !== undefined) keys = keys.filter((k) => viewable.includes(k));
  return only === undefined ? keys : keys.filter((k) => k === only);
}

export function registerPermissionsRoutes(router: AppRouter, namespaces: NamespaceRepository, guard: OperationGuard | undefined): void {
  router.get('/permissions', async (ctx) => {
    const caller = ctx.state.caller;
    const only = queryOf(ctx).namespace;
    const keys = await visible(caller, guard, namespaces, typeof only === 'string' && only !== '' ? only : undefined);
    let body: Permissions;
    if (guard === undefined) {
      body = {
        authorizationRequired: false,
        namespaces: Object.fromEntries(keys.map((k) => [k, everything()])),
        authentication: caller?.namespace === undefined ? [...AUTHZ_ACTIONS] : [],
      };
    } else {
      const granted = await guard.permissions(caller, keys);
      body = { authorizationRequired: true, namespaces: granted.namespaces, authentication: caller?.namespace === undefined ? granted.authentication : [] };
    }
    sendJson(ctx, body);
  });
}
