/**
 * Namespace-scoped tokens on `/api/v1`: a request is let through only when every namespace it
 * touches is the token's. The namespace is read as the routes read it: the path's
 * `/namespaces/{key}` first, else (legacy routes) the `namespaceKey` of a POST or PUT body or of
 * any other method's query, `""` being `default`. Listing and creating namespaces touch no single
 * namespace and are refused.
 */
import { type AccessPolicy, inNamespaces, type ScopeTarget, UNDETERMINED, UNSCOPED } from '@ensign/auth';
import { type Fields, isFields, readString } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** A request's `namespaceKey`; undefined when it is of the wrong type. */
function namespaceField(src: Fields): string | undefined {
  try {
    return readString(src, 'namespaceKey');
  } catch {
    return undefined;
  }
}

/** The routes decode POST and PUT requests from their body, every other one from its query. */
const readsBody = (method: string): boolean => method === 'POST' || method === 'PUT';

/** What a management request touches, from its method, the path below `prefix`, its body and its query. */
export function managementScope(method: string, path: string, prefix: string, body: unknown, query: Fields): ScopeTarget {
  const segments = path.slice(prefix.length).split('/').slice(1);
  if (segments[0] === 'namespaces') {
    const key = segments[1];
    return key === undefined || key === '' ? UNSCOPED : inNamespaces(decode(key));
  }
  const fromBody = namespaceField(isFields(body) ? body : {});
  const fromQuery = namespaceField(query);
  if (fromBody === undefined || fromQuery === undefined) return UNDETERMINED;
  const [read, unread] = readsBody(method) ? [fromBody, fromQuery] : [fromQuery, fromBody];
  // A namespace also sent the way the route does not read it must agree, so no reading of the request escapes the scope.
  return unread === '' ? inNamespaces(read) : inNamespaces(read, unread);
}

/** Router middleware of `/api/v1` (after the body is parsed); passes unscoped callers at once. */
export function namespaceScopeMiddleware(prefix: string, policy: AccessPolicy): Middleware<AppState> {
  return (ctx, next) => {
    const caller = ctx.state.caller;
    if (caller?.namespace !== undefined) {
      const query: Record<string, string> = {};
      for (const [name, value] of Object.entries(ctx.query)) {
        const first = Array.isArray(value) ? value[0] : value;
        if (first !== undefined) query[name] = first;
      }
      policy.assertScope('management', caller, managementScope(ctx.method, ctx.path, prefix, ctx.request.body, query));
    }
    return next();
  };
}
