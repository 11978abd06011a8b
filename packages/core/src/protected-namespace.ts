/**
 * Protected namespaces (a change policy asking for approvals): which management operations a change
 * request may propose, which of them a protected namespace refuses when called directly, and the
 * refusal every transport answers.
 */
import { type AppError, permissionDenied } from './errors.js';
import type { ManagementOperation } from './management-operations.js';

/** The operations a change request may propose: writes of flag state, never of namespaces or tokens. */
const PROPOSABLE = /^(Create|Update|Delete|Order)(Flag|Variant|Rule|Distribution|Rollout|Segment|Constraint|Rules|Rollouts|FlagSchedule)$/;

/** Whether a change request may propose `operation`. */
export const isProposable = (operation: string): boolean => PROPOSABLE.test(operation);

/** Whether a protected namespace refuses `operation` when called directly (an import included). */
export const isProtectedWrite = (operation: string): boolean => isProposable(operation) || operation === 'ImportNamespace';

/** The refusal of a direct write to a protected namespace. */
export const protectedNamespaceError = (namespace: string): AppError =>
  permissionDenied(`namespace "${namespace}" is protected: changes to it are made through a change request (POST /api/v1/namespaces/${namespace}/change-requests)`);

/** What deciding a direct write to a protected namespace takes: the policies, and authorization when configured. */
export interface WriteProtection<Caller> {
  policies: { requiredApprovals(namespaceKey: string): Promise<number> };
  /** Asked quietly whether the caller holds `bypass` (a role's right, under authorization only). */
  guard?: { allows(caller: Caller | undefined, operation: ManagementOperation): Promise<boolean> } | undefined;
}

/**
 * Throws the protected-namespace refusal when `name` is a write the namespace's policy holds back
 * and the caller may not bypass it. Every transport checks a direct write with this.
 */
export async function assertWritable<Caller>(protection: WriteProtection<Caller>, caller: Caller | undefined, name: string, namespace: string): Promise<void> {
  if (!isProtectedWrite(name) || (await protection.policies.requiredApprovals(namespace)) === 0) return;
  const { guard } = protection;
  if (guard !== undefined && (await guard.allows(caller, { name: 'BypassChangePolicy', namespace }))) return;
  throw protectedNamespaceError(namespace);
}
