/**
 * What the benchmark knows of each seeded flag: enough to send full-replace updates (a `PUT` of a flag
 * must repeat its default variant, or it is cleared) and to pick one-flag writes of every kind.
 */

export interface ModelVariant {
  id: string;
  key: string;
  name: string;
  attachment: string;
}

export interface ModelRule {
  id: string;
  distributions: Array<{ id: string; variantId: string; rollout: number }>;
}

export interface ModelRollout {
  id: string;
  /** A segment rollout's segment; undefined for a threshold rollout. */
  segmentKey: string | undefined;
  percentage: number;
  value: boolean;
}

export interface ModelFlag {
  key: string;
  /** variant: 2 variants and rules; rollouts: boolean with a segment and a threshold rollout; plain: boolean alone. */
  kind: 'variant' | 'rollouts' | 'plain';
  name: string;
  description: string;
  enabled: boolean;
  /** `''` when none. */
  defaultVariantId: string;
  variants: ModelVariant[];
  rules: ModelRule[];
  rollouts: ModelRollout[];
}

export interface SeededNamespace {
  key: string;
  flags: ModelFlag[];
  segmentKeys: string[];
  /** Management calls the seeding made. */
  calls: number;
}
