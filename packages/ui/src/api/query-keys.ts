/**
 * The cache keys of every read. A write invalidates the keys it changes: anything under
 * `['ns', ns]` holds data of one namespace, so a write there can refresh them all at once.
 */
import type { HistoryFilter } from './endpoints.js';

export const queryKeys = {
  namespaces: ['namespaces'] as const,
  namespace: (ns: string) => ['ns', ns] as const,
  flags: (ns: string) => ['ns', ns, 'flags'] as const,
  flag: (ns: string, key: string) => ['ns', ns, 'flag', key] as const,
  rules: (ns: string, flagKey: string) => ['ns', ns, 'flag', flagKey, 'rules'] as const,
  rollouts: (ns: string, flagKey: string) => ['ns', ns, 'flag', flagKey, 'rollouts'] as const,
  schedules: (ns: string, flagKey: string) => ['ns', ns, 'flag', flagKey, 'schedules'] as const,
  /** A flag's Usage tab over one of its ranges (the range's ends move with each refresh). */
  flagUsage: (ns: string, flagKey: string, range: string) => ['ns', ns, 'flag', flagKey, 'usage', range] as const,
  /** The namespace's usage listing over a window (`""`: the service's default). */
  usage: (ns: string, window: string) => ['ns', ns, 'usage', window] as const,
  segments: (ns: string) => ['ns', ns, 'segments'] as const,
  segment: (ns: string, key: string) => ['ns', ns, 'segment', key] as const,
  /** A history listing: a flag's, a segment's, the namespace's activity (see `isHistoryKey`). */
  history: (ns: string, filter: HistoryFilter) => ['ns', ns, 'history', filter] as const,
  /** The namespace's change policy (how many approvals its changes need). */
  changePolicy: (ns: string) => ['ns', ns, 'change-policy'] as const,
  /** A listing of the namespace's change requests in `states` (none: every state). */
  changeRequests: (ns: string, states: readonly string[]) => ['ns', ns, 'change-requests', states] as const,
  changeRequest: (ns: string, id: string) => ['ns', ns, 'change-request', id] as const,
  /** The caller's open draft in the namespace (`null`: none). */
  ownDraft: (ns: string) => ['ns', ns, 'own-draft'] as const,
  tokens: ['tokens'] as const,
  /** `/meta/info`'s storage (read once per session: where flags come from, whether they can be changed). */
  storage: ['server-storage'] as const,
  methods: ['auth-methods'] as const,
  /** What the session may do (every namespace it may view, and tokens): refetched when the namespace changes, cleared with the session. */
  permissions: ['permissions'] as const,
};

/** Is `key` a history listing (of any namespace)? Every write refreshes those: any of them may list it. */
export const isHistoryKey = (key: readonly unknown[]): boolean => key[0] === 'ns' && key[2] === 'history';
