/**
 * What the UI knows of namespaces' change policies and of the session's right to bypass them, kept
 * where the API client can read it before each write: a write to a protected namespace goes into
 * the caller's draft (`drafting.ts`) unless the session may bypass the policy.
 */

const required = new Map<string, number>();
let bypasses: (ns: string) => boolean = () => false;

/** Remembers how many approvals `ns`'s changes need (0: unprotected). */
export function rememberPolicy(ns: string, requiredApprovals: number): void {
  required.set(ns, requiredApprovals);
}

/** Remembers in which namespaces the session may write directly despite a policy. */
export function rememberBypass(mayBypass: (ns: string) => boolean): void {
  bypasses = mayBypass;
}

/** Whether the last word on `ns` was that it is protected. */
export const knownProtected = (ns: string): boolean => (required.get(ns) ?? 0) > 0;

/** Whether an edit of `ns` is to go into the caller's draft rather than be made directly. */
export const draftsEdits = (ns: string): boolean => knownProtected(ns) && !bypasses(ns);

/** Whether the session may bypass `ns`'s policy. */
export const mayBypass = (ns: string): boolean => bypasses(ns);
