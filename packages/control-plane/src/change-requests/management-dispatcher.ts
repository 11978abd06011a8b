/**
 * Runs a proposed management call in process, through the very route that serves it over HTTP: the
 * same decoding, scope and authorization checks (its operation middleware) and the same use case.
 * A change request is a list of such calls; run inside a store batch (or trial) their writes join
 * one transaction.
 */
import compose from 'koa-compose';
import { invalidField, isProposable, type ManagementOperationName, type ProposedChange } from '@ensign/core';
import type { AppContext, AppRouter, AppState } from '../http/app-state.js';

/** A proposed call resolved to its route: the operation it runs and the route's middleware. */
interface ResolvedCall {
  operation: ManagementOperationName;
  params: Record<string, string>;
  stack: Array<(ctx: AppContext, next: () => Promise<unknown>) => unknown>;
}

export class ManagementDispatcher {
  constructor(private readonly router: AppRouter) {}

  /**
   * The operation a proposed call would run, checked to be a write of flag state in `namespaceKey`;
   * `field` names the change in errors (`changes[2]`).
   */
  resolve(change: ProposedChange, namespaceKey: string, field: string): ResolvedCall {
    const path = change.path.split('?')[0] ?? '';
    const match = this.router.match(path, change.method);
    const layer = match.pathAndMethod.find((l) => l.methods.length > 0);
    if (layer === undefined) throw invalidField(`${field}.path`, `no ${change.method} route of the API is ${JSON.stringify(path.slice(0, 256))}`);
    const stack = layer.stack as unknown as ResolvedCall['stack'];
    const operation = (stack[0] as { operation?: ManagementOperationName }).operation;
    if (operation === undefined || !isProposable(operation)) {
      throw invalidField(`${field}.path`, `${change.method} ${path.slice(0, 256)} (${operation ?? 'no operation'}) cannot be proposed: a change request changes flags and segments`);
    }
    const params = layer.params(path, layer.captures(path), {}) as Record<string, string>;
    const target = params.namespaceKey ?? 'default';
    if (target !== namespaceKey) throw invalidField(`${field}.path`, `names namespace "${target}"; a change request of "${namespaceKey}" changes that namespace only`);
    return { operation, params, stack };
  }

  /** Runs the call as `state`'s caller; answers what the route would have answered. */
  async run(change: ProposedChange, namespaceKey: string, field: string, state: AppState): Promise<unknown> {
    const { params, stack } = this.resolve(change, namespaceKey, field);
    const ctx = inProcessContext(change, params, state);
    await compose(stack)(ctx);
    return typeof ctx.body === 'string' && ctx.body !== '' ? JSON.parse(ctx.body) : undefined;
  }
}

/** The context a route sees for an in-process call: path, params, body and caller, nothing of a socket. */
function inProcessContext(change: ProposedChange, params: Record<string, string>, state: AppState): AppContext {
  const headers: Record<string, string> = {};
  const [path = '', search = ''] = change.path.split('?', 2);
  // The query as Koa parses it: a repeated name is a list.
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const held = query[name];
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  const ctx = {
    method: change.method,
    path,
    params,
    query,
    request: { body: change.body ?? {}, query },
    state: { ...state, changeRequest: state.changeRequest ?? { scheduled: false } },
    status: 404,
    body: undefined as unknown,
    get: () => '',
    set: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
  };
  return ctx as unknown as AppContext;
}
