/**
 * Protected namespaces: a direct write of flag state (or an import) to a namespace whose change
 * policy asks for approvals is refused, before anything is written, with the way to make it
 * instead. The writes of a change request being tried or applied are the approved way, so they
 * pass; so do the writes of a caller whose role holds `bypass` (under authorization only).
 */
import type { Caller } from '@ensign/auth';
import { assertWritable, isProtectedWrite, type ManagementOperationName, type WriteProtection } from '@ensign/core';
import type { Operations, OperationMiddleware } from '../auth/operation.middleware.js';
import type { AppContext } from '../http/app-state.js';

/** What the guard needs of the change policies. */
export interface ChangePolicies {
  requiredApprovals(namespaceKey: string): Promise<number>;
}

export type Protection = WriteProtection<Caller>;

/** `op` with the change policy checked on every write a change request could propose. */
export function protectedWrites(op: Operations, protection: Protection): Operations {
  const make = (name: ManagementOperationName): OperationMiddleware => {
    const inner = op(name);
    if (!isProtectedWrite(name)) return inner;
    const middleware = ((ctx: AppContext, next: () => Promise<unknown>) =>
      inner(ctx, async () => {
        if (ctx.state.changeRequest === undefined) await assertWritable(protection, ctx.state.caller, name, ctx.state.operation?.namespace ?? 'default');
        return next();
      })) as OperationMiddleware;
    middleware.operation = name;
    return middleware;
  };
  return Object.assign(make, { viewableNamespaces: op.viewableNamespaces });
}
