/**
 * Every management route names its operation (core's catalog): the route's middleware reads the
 * namespace the call touches once, keeps the operation on `ctx.state.operation`, and has it
 * authorized before the handler runs.
 */
import { type ManagementOperation, type ManagementOperationName, MANAGEMENT_OPERATIONS, isFields } from '@ensign/core';
import type { Caller } from '@ensign/auth';
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import type { OperationGuard } from './operation-guard.js';

/** A route's operation middleware, marked so a test can find a route without one. */
export type OperationMiddleware = Middleware<AppState> & { operation: ManagementOperationName };

const stringField = (src: unknown, name: string): string | undefined => {
  if (!isFields(src)) return undefined;
  const value = src[name];
  return typeof value === 'string' ? value : undefined;
};

const firstQuery = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The namespace an HTTP management call touches, as its route reads it: the path's namespace; for
 * a namespace itself its key (path, or the body's on create); none for listing namespaces; on the
 * routes without a namespace segment the `namespaceKey` of a POST/PUT body or of the query, `""`
 * (or none) being `default`; the authentication API's calls are about no namespace.
 */
export function namespaceOfCall(name: ManagementOperationName, ctx: { method: string; params?: Record<string, string>; request: { body?: unknown }; query: Record<string, string | string[] | undefined> }): string | undefined {
  const params = ctx.params ?? {};
  if (MANAGEMENT_OPERATIONS[name].some((kind) => kind.resource === 'authentication')) return undefined;
  if (params.namespaceKey !== undefined) return params.namespaceKey === '' ? 'default' : params.namespaceKey;
  if (name === 'ListNamespaces') return undefined;
  if (name === 'CreateNamespace') return stringField(ctx.request.body, 'key') ?? '';
  if (params.key !== undefined && MANAGEMENT_OPERATIONS[name].some((kind) => kind.resource === 'namespace' && kind.subject === 'namespace')) return params.key;
  const read = ctx.method === 'POST' || ctx.method === 'PUT' ? stringField(ctx.request.body, 'namespaceKey') : firstQuery(ctx.query.namespaceKey);
  return read === undefined || read === '' ? 'default' : read;
}

/** The middleware of a route running `name`; `guard` (authorization) when configured. */
export function operation(name: ManagementOperationName, guard: OperationGuard | undefined): OperationMiddleware {
  const middleware = ((ctx, next) => {
    const op: ManagementOperation = { name, namespace: namespaceOfCall(name, ctx) };
    ctx.state.operation = op;
    if (guard === undefined) return next();
    const checked = guard.check(ctx.state.caller, op);
    return checked === undefined ? next() : checked.then(next);
  }) as OperationMiddleware;
  middleware.operation = name;
  return middleware;
}

/** Makes each route's operation middleware, all with one guard, and says which namespaces a caller may list. */
export interface Operations {
  (name: ManagementOperationName): OperationMiddleware;
  /** The namespaces the caller may see when listing them; undefined: every one. */
  viewableNamespaces(caller: Caller | undefined): Promise<readonly string[] | undefined>;
}

export function operations(guard: OperationGuard | undefined): Operations {
  const make = (name: ManagementOperationName): OperationMiddleware => operation(name, guard);
  return Object.assign(make, { viewableNamespaces: async (caller: Caller | undefined) => guard?.viewableNamespaces(caller) });
}
