/**
 * The cache keys of every read. A write invalidates the keys it changes: anything under
 * `['ns', ns]` holds data of one namespace, so a write there can refresh them all at once.
 */
export const queryKeys = {
  namespaces: ['namespaces'] as const,
  namespace: (ns: string) => ['ns', ns] as const,
  flags: (ns: string) => ['ns', ns, 'flags'] as const,
  flag: (ns: string, key: string) => ['ns', ns, 'flag', key] as const,
  rules: (ns: string, flagKey: string) => ['ns', ns, 'flag', flagKey, 'rules'] as const,
  rollouts: (ns: string, flagKey: string) => ['ns', ns, 'flag', flagKey, 'rollouts'] as const,
  segments: (ns: string) => ['ns', ns, 'segments'] as const,
  segment: (ns: string, key: string) => ['ns', ns, 'segment', key] as const,
  tokens: ['tokens'] as const,
  methods: ['auth-methods'] as const,
};
