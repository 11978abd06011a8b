/** What the control plane needs of authorization (`@ensign/auth`'s `ManagementAuthorization` has it). */
import type { Caller } from '@ensign/auth';
import type { AuthzAction, ManagementOperation, NamespacedResource } from '@ensign/core';

export interface OperationGuard {
  /** Returns (or resolves) when the caller may run the operation; throws (rejects) PermissionDenied when not. */
  check(caller: Caller | undefined, operation: ManagementOperation): void | Promise<void>;
  /** Whether the caller may run the operation, asked without counting or auditing a refusal. */
  allows(caller: Caller | undefined, operation: ManagementOperation): Promise<boolean>;
  /** The namespaces the caller may see when listing them; undefined: every one. */
  viewableNamespaces(caller: Caller | undefined): readonly string[] | undefined | Promise<readonly string[] | undefined>;
  /** What the caller may do in each of `namespaces`, and on tokens. */
  permissions(caller: Caller | undefined, namespaces: readonly string[]): Promise<{ namespaces: Record<string, Record<NamespacedResource, AuthzAction[]>>; authentication: AuthzAction[] }>;
}
