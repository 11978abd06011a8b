/**
 * A namespace's change policy and the caller's part in it: whether edits go into a draft, the
 * caller's open draft, and whether the caller may approve others' requests.
 */
import { useQuery } from '@tanstack/react-query';
import { changePolicies } from '../api/change-requests.js';
import { draftAuthor, findOwnDraft } from '../api/drafting.js';
import { queryKeys } from '../api/query-keys.js';
import { mayApprove, mayBypassPolicy } from '../lib/permissions.js';
import { usePermissions } from './permissions.js';

export function useChangePolicy(ns: string) {
  return useQuery({ queryKey: queryKeys.changePolicy(ns), queryFn: () => changePolicies.get(ns) });
}

/** The caller's open draft in `ns` (`null` when there is none). */
export function useOwnDraft(ns: string, enabled = true) {
  return useQuery({ queryKey: queryKeys.ownDraft(ns), queryFn: async () => (await findOwnDraft(ns)) ?? null, enabled });
}

export interface Review {
  /** How many approvals the namespace's changes need; 0 while unknown or unprotected. */
  required: number;
  /** Edits of the namespace go into the caller's draft. */
  drafts: boolean;
  /** The caller may write past the policy. */
  bypass: boolean;
  /** The caller may approve and reject others' requests. */
  approve: boolean;
  /** The caller's authentication id (undefined with authentication off). */
  caller: string | undefined;
}

export function useReview(ns: string): Review {
  const policy = useChangePolicy(ns);
  const permissions = usePermissions();
  const required = policy.data?.requiredApprovals ?? 0;
  const bypass = mayBypassPolicy(permissions, ns);
  return { required, drafts: required > 0 && !bypass, bypass, approve: mayApprove(permissions, ns), caller: draftAuthor() };
}
