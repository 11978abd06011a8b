/**
 * Protected namespaces (a change policy asking for approvals): which management operations a change
 * request may propose, which of them a protected namespace refuses when called directly, and the
 * refusal every transport answers.
 */
import { type AppError, permissionDenied } from './errors.js';

/** The operations a change request may propose: writes of flag state, never of namespaces or tokens. */
const PROPOSABLE = /^(Create|Update|Delete|Order)(Flag|Variant|Rule|Distribution|Rollout|Segment|Constraint|Rules|Rollouts|FlagSchedule)$/;

/** Whether a change request may propose `operation`. */
export const isProposable = (operation: string): boolean => PROPOSABLE.test(operation);

/** Whether a protected namespace refuses `operation` when called directly (an import included). */
export const isProtectedWrite = (operation: string): boolean => isProposable(operation) || operation === 'ImportNamespace';

/** The refusal of a direct write to a protected namespace. */
export const protectedNamespaceError = (namespace: string): AppError =>
  permissionDenied(`namespace "${namespace}" is protected: changes to it are made through a change request (POST /api/v1/namespaces/${namespace}/change-requests)`);
