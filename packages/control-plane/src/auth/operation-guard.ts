/** What the control plane needs of authorization (`@ensign/auth`'s `ManagementAuthorization` has it). */
import type { Caller } from '@ensign/auth';
import type { ManagementOperation } from '@ensign/core';

export interface OperationGuard {
  /** Returns (or resolves) when the caller may run the operation; throws (rejects) PermissionDenied when not. */
  check(caller: Caller | undefined, operation: ManagementOperation): void | Promise<void>;
  /** The namespaces the caller may see when listing them; undefined: every one. */
  viewableNamespaces(caller: Caller | undefined): readonly string[] | undefined | Promise<readonly string[] | undefined>;
}
