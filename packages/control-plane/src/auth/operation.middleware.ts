/**
 * Every management route names its operation (core's catalog): the route's middleware reads once
 * which namespace the call touches, keeps the operation on `ctx.state.operation`, holds a
 * namespace-scoped token to it and has it authorized, all before the handler runs.
 */
import { type AccessPolicy, type Caller, inNamespaces, type ScopeTarget, UNDETERMINED, UNSCOPED } from '@ensign/auth';
import { type ManagementOperation, type ManagementOperationName, MANAGEMENT_OPERATIONS, isFields } from '@ensign/core';
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import type { OperationGuard } from './operation-guard.js';

/** A route's operation middleware, marked so a test can find a route without one. */
export type OperationMiddleware = Middleware<AppState> & { operation: ManagementOperationName };

/** What the middleware reads of a request. */
export interface CallInput {
  method: string;
  params?: Record<string, string>;
  request: { body?: unknown };
  query: Record<string, string | string[] | undefined>;
}

/** A call decoded: its operation, and what a namespace-scoped token is held to. */
export interface DecodedCall {
  operation: ManagementOperation;
  scope: ScopeTarget;
}

/** A string field; `null` when present with another type (the call's namespace cannot be read). */
function stringField(src: unknown, name: string): string | undefined | null {
  if (!isFields(src) || src[name] === undefined) return undefined;
  const value = src[name];
  return typeof value === 'string' ? value : null;
}

const firstQuery = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
const orDefault = (key: string | undefined): string => (key === undefined || key === '' ? 'default' : key);
const isAbout = (name: ManagementOperationName, resource: string): boolean => MANAGEMENT_OPERATIONS[name].some((kind) => kind.resource === resource && kind.subject === resource);

/**
 * The call as its route reads it: the path's namespace; for a namespace itself its key (none for
 * listing namespaces, the body's key on create, both refused to scoped tokens as they touch no one
 * namespace of theirs); the authentication API's calls are about no namespace; on the routes
 * without a namespace segment the `namespaceKey` of a POST/PUT body or of any other method's query,
 * `""` (or none) being `default`, and a namespace also sent the way the route does not read it
 * must be the scoped token's too, so no reading of the request escapes the scope.
 */
export function decodeCall(name: ManagementOperationName, ctx: CallInput): DecodedCall {
  const params = ctx.params ?? {};
  if (MANAGEMENT_OPERATIONS[name].some((kind) => kind.resource === 'authentication')) return { operation: { name, namespace: undefined }, scope: UNSCOPED };
  if (params.namespaceKey !== undefined) {
    const namespace = orDefault(params.namespaceKey);
    return { operation: { name, namespace }, scope: inNamespaces(namespace) };
  }
  if (name === 'ListNamespaces') return { operation: { name, namespace: undefined }, scope: UNSCOPED };
  if (name === 'CreateNamespace') return { operation: { name, namespace: stringField(ctx.request.body, 'key') ?? '' }, scope: UNSCOPED };
  if (params.key !== undefined && isAbout(name, 'namespace')) return { operation: { name, namespace: params.key }, scope: inNamespaces(params.key) };
  const fromBody = stringField(ctx.request.body, 'namespaceKey');
  const fromQuery = stringField({ namespaceKey: firstQuery(ctx.query.namespaceKey) }, 'namespaceKey');
  const [read, unread] = ctx.method === 'POST' || ctx.method === 'PUT' ? [fromBody, fromQuery] : [fromQuery, fromBody];
  const namespace = orDefault(read ?? undefined);
  if (read === null || unread === null) return { operation: { name, namespace }, scope: UNDETERMINED };
  return { operation: { name, namespace }, scope: unread === undefined || unread === '' ? inNamespaces(namespace) : inNamespaces(namespace, unread) };
}

/** The middleware of a route running `name`. */
export function operation(name: ManagementOperationName, policy: AccessPolicy, guard: OperationGuard | undefined): OperationMiddleware {
  const middleware = ((ctx, next) => {
    const call = decodeCall(name, ctx);
    ctx.state.operation = call.operation;
    if (ctx.state.changeRequest?.scheduled === true) return next();
    policy.assertScope('management', ctx.state.caller, call.scope);
    if (guard === undefined) return next();
    const checked = guard.check(ctx.state.caller, call.operation);
    return checked === undefined ? next() : checked.then(next);
  }) as OperationMiddleware;
  middleware.operation = name;
  return middleware;
}

/** Makes each route's operation middleware, all with one policy and guard, and says which namespaces a caller may list. */
export interface Operations {
  (name: ManagementOperationName): OperationMiddleware;
  /** The namespaces the caller may see when listing them; undefined: every one. */
  viewableNamespaces(caller: Caller | undefined): Promise<readonly string[] | undefined>;
}

export function operations(policy: AccessPolicy, guard: OperationGuard | undefined): Operations {
  const make = (name: ManagementOperationName): OperationMiddleware => operation(name, policy, guard);
  return Object.assign(make, { viewableNamespaces: async (caller: Caller | undefined) => guard?.viewableNamespaces(caller) });
}
