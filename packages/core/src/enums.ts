/**
 * Flipt enums in their JSON spellings. On input either the name or the proto integer is
 * accepted; on output the name is written.
 */

/** An enum as an ordered list of names; a name's index is its proto integer. */
export interface EnumSpec<N extends string> {
  readonly names: readonly N[];
  /** The name for a name or proto integer, or undefined when it is neither. */
  parse(value: unknown): N | undefined;
  /** The proto integer of a name. */
  number(name: N): number;
}

export function defineEnum<const N extends string>(names: readonly N[]): EnumSpec<N> {
  const index = new Map<string, number>(names.map((n, i) => [n, i]));
  return {
    names,
    parse(value) {
      if (typeof value === 'string') return index.has(value) ? (value as N) : undefined;
      if (typeof value === 'number' && Number.isInteger(value)) return names[value];
      return undefined;
    },
    number(name) {
      return index.get(name) ?? 0;
    },
  };
}

export const FlagType = defineEnum(['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE']);
export type FlagType = (typeof FlagType.names)[number];

export const MatchType = defineEnum(['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE']);
export type MatchType = (typeof MatchType.names)[number];

export const ComparisonType = defineEnum([
  'UNKNOWN_COMPARISON_TYPE',
  'STRING_COMPARISON_TYPE',
  'NUMBER_COMPARISON_TYPE',
  'BOOLEAN_COMPARISON_TYPE',
  'DATETIME_COMPARISON_TYPE',
  'ENTITY_ID_COMPARISON_TYPE',
]);
export type ComparisonType = (typeof ComparisonType.names)[number];

export const SegmentOperator = defineEnum(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR']);
export type SegmentOperator = (typeof SegmentOperator.names)[number];

export const RolloutType = defineEnum(['UNKNOWN_ROLLOUT_TYPE', 'SEGMENT_ROLLOUT_TYPE', 'THRESHOLD_ROLLOUT_TYPE']);
export type RolloutType = (typeof RolloutType.names)[number];
