/**
 * A Flipt document (version 1.4, as `flipt export` writes it) of `count` variant flags, each with
 * two variants and a rule on the segment `everyone` split 50/50 over them.
 */
export function splitFlagsDocument(namespace: { key: string; name: string }, count: number): Record<string, unknown> {
  return {
    version: '1.4',
    namespace,
    flags: Array.from({ length: count }, (_, i) => ({
      key: `flag-${String(i).padStart(5, '0')}`,
      name: `Flag ${i}`,
      type: 'VARIANT_FLAG_TYPE',
      enabled: true,
      variants: [
        { key: 'on', name: 'On' },
        { key: 'off', name: 'Off' },
      ],
      rules: [{ segment: 'everyone', distributions: [{ variant: 'on', rollout: 50 }, { variant: 'off', rollout: 50 }] }],
    })),
    segments: [{ key: 'everyone', name: 'Everyone', match_type: 'ANY_MATCH_TYPE' }],
  };
}
