/**
 * Protected namespaces: a direct write of flag state (or an import) to a namespace whose change
 * policy asks for approvals is refused, before anything is written, with the way to make it instead. The writes of
 * an applied change request are the approved way, so they pass.
 */
import { isProtectedWrite, type ManagementOperationName, protectedNamespaceError } from '@ensign/core';
import type { Operations, OperationMiddleware } from '../auth/operation.middleware.js';
import type { AppContext } from '../http/app-state.js';

/** What the guard needs of the change policies. */
export interface ChangePolicies {
  requiredApprovals(namespaceKey: string): Promise<number>;
}

/** `op` with the change policy checked on every write a change request could propose. */
export function protectedWrites(op: Operations, policies: ChangePolicies): Operations {
  const make = (name: ManagementOperationName): OperationMiddleware => {
    const inner = op(name);
    if (!isProtectedWrite(name)) return inner;
    const middleware = ((ctx: AppContext, next: () => Promise<unknown>) =>
      inner(ctx, async () => {
        const namespace = ctx.state.operation?.namespace ?? 'default';
        if (ctx.state.viaChangeRequest !== true && (await policies.requiredApprovals(namespace)) > 0) {
          throw protectedNamespaceError(namespace);
        }
        return next();
      })) as OperationMiddleware;
    middleware.operation = name;
    return middleware;
  };
  return Object.assign(make, { viewableNamespaces: op.viewableNamespaces });
}
