/**
 * The routes of change requests and change policies (`/api/v1/namespaces/{ns}/change-requests`,
 * `…/change-policy`), and promotions: a request that makes one namespace match another.
 */
import type { ChangeRecord, ChangeRequestState, ProposedChange } from '@ensign/core';
import type { ChangeRequestView } from '../lib/change-requests.js';
import { ApiError, request, seg } from './client.js';
import { rememberPolicy } from './protection.js';

const policyPath = (ns: string): string => `/api/v1/namespaces/${seg(ns)}/change-policy`;
const base = (ns: string): string => `/api/v1/namespaces/${seg(ns)}/change-requests`;
const one = (ns: string, id: string): string => `${base(ns)}/${seg(id)}`;

export interface ChangePolicy {
  namespaceKey: string;
  /** 0: unprotected; otherwise how many callers other than the author must approve a request. */
  requiredApprovals: number;
}

export interface ChangeRequestContent {
  title: string;
  description: string;
  changes: ProposedChange[];
}

/** A request that makes the target namespace match `promoteFrom` for the flags and segments named (all when none are). */
export interface PromotionInput {
  promoteFrom: string;
  flags?: string[];
  segments?: string[];
  title?: string;
}

/** What a promotion would propose: its changes, their digest and the diff they would make now. */
export interface PromotionPreview {
  namespaceKey: string;
  changes: ProposedChange[];
  digest: string;
  diff: ChangeRecord[];
}

export const changePolicies = {
  /** The namespace's policy; a server from before change requests (404 of the route) protects nothing. */
  get: async (ns: string): Promise<ChangePolicy> => {
    let policy: ChangePolicy;
    try {
      policy = await request<ChangePolicy>('GET', policyPath(ns));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404 && !err.serviceMessage.startsWith('namespace '))) throw err;
      policy = { namespaceKey: ns, requiredApprovals: 0 };
    }
    rememberPolicy(ns, policy.requiredApprovals);
    return policy;
  },
  set: async (ns: string, requiredApprovals: number): Promise<ChangePolicy> => {
    const policy = await request<ChangePolicy>('PUT', policyPath(ns), { requiredApprovals });
    rememberPolicy(ns, policy.requiredApprovals);
    return policy;
  },
};

export const changeRequests = {
  /** Newest first; `states` empty lists every state, `author` (an authentication id or name) only theirs. */
  list: async (ns: string, states: readonly ChangeRequestState[], author?: string): Promise<ChangeRequestView[]> => {
    const query = new URLSearchParams();
    if (states.length > 0) query.set('state', states.join(','));
    if (author !== undefined && author !== '') query.set('author', author);
    const text = query.toString();
    return (await request<{ changeRequests: ChangeRequestView[] }>('GET', `${base(ns)}${text === '' ? '' : `?${text}`}`)).changeRequests;
  },
  get: (ns: string, id: string): Promise<ChangeRequestView> => request('GET', one(ns, id)),
  create: (ns: string, content: ChangeRequestContent): Promise<ChangeRequestView> => request('POST', base(ns), content),
  /** New title, description and changes: approvals given so far are void. */
  replace: (ns: string, id: string, content: ChangeRequestContent): Promise<ChangeRequestView> => request('PUT', one(ns, id), content),
  submit: (ns: string, id: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/submit`, {}),
  cancel: (ns: string, id: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/cancel`, {}),
  comment: (ns: string, id: string, comment: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/comments`, { comment }),
  /** Approves the changes whose digest the approver saw: refused when they were replaced since. */
  approve: (ns: string, id: string, digest: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/approvals`, { digest }),
  reject: (ns: string, id: string, comment: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/rejections`, { comment }),
  /** Applies now, or at `applyAt` (RFC 3339). */
  apply: (ns: string, id: string, applyAt?: string): Promise<ChangeRequestView> => request('POST', `${one(ns, id)}/apply`, applyAt === undefined ? {} : { applyAt }),
  /** What a promotion into `target` would propose, stored nowhere. */
  previewPromotion: (target: string, input: PromotionInput, signal?: AbortSignal): Promise<PromotionPreview> =>
    request('POST', `${base(target)}?dryRun=true`, input, signal === undefined ? {} : { signal }),
  /** A request of `target` (a draft) that makes it match the source. */
  promote: (target: string, input: PromotionInput): Promise<ChangeRequestView> => request('POST', base(target), input),
};
