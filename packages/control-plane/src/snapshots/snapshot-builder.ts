import type { ComparisonType, Flag, MatchType, Prerequisite, Segment, ValidityWindow, Variant } from '@ensign/core';
import type {
  CompileOptions,
  SnapshotComparisonType,
  SnapshotDistribution,
  SnapshotFlag,
  SnapshotMatchType,
  SnapshotPrerequisite,
  SnapshotRollout,
  SnapshotRule,
  SnapshotSegment,
  SnapshotWindow,
} from '@ensign/engine';
import { SnapshotVersion } from '@ensign/snapshots';
import type { FlagsState, NamespaceState, NamespaceStateRollout, NamespaceStateRule } from '@ensign/store';

/** The snapshot spells enums with the evaluation names (reference §4). */
const MATCH_TYPES: Readonly<Record<MatchType, SnapshotMatchType>> = {
  ALL_MATCH_TYPE: 'ALL_SEGMENT_MATCH_TYPE',
  ANY_MATCH_TYPE: 'ANY_SEGMENT_MATCH_TYPE',
};

const COMPARISON_TYPES: Readonly<Record<ComparisonType, SnapshotComparisonType>> = {
  UNKNOWN_COMPARISON_TYPE: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE',
  STRING_COMPARISON_TYPE: 'STRING_CONSTRAINT_COMPARISON_TYPE',
  NUMBER_COMPARISON_TYPE: 'NUMBER_CONSTRAINT_COMPARISON_TYPE',
  BOOLEAN_COMPARISON_TYPE: 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE',
  DATETIME_COMPARISON_TYPE: 'DATETIME_CONSTRAINT_COMPARISON_TYPE',
  ENTITY_ID_COMPARISON_TYPE: 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE',
};

// COMPAT(flipt): inlined segments carry `name: ""` and `description: ""`, and no timestamps.
function toSnapshotSegment(segment: Segment): SnapshotSegment {
  return {
    key: segment.key,
    name: '',
    description: '',
    matchType: MATCH_TYPES[segment.matchType],
    constraints: segment.constraints.map((c) => ({
      id: c.id,
      type: COMPARISON_TYPES[c.type],
      property: c.property,
      operator: c.operator,
      value: c.value,
    })),
  };
}

/** Resolves segment keys to the inlined segments; the store's foreign keys guarantee they exist. */
function segmentsOf(keys: readonly string[], segments: ReadonlyMap<string, SnapshotSegment>, owner: string): SnapshotSegment[] {
  return keys.map((key) => {
    const segment = segments.get(key);
    if (segment === undefined) throw new Error(`${owner} refers to segment "${key}", which the namespace does not hold`);
    return segment;
  });
}

/** Rows grouped by their flag, keeping their order (Node 20 has no Map.groupBy). */
function byFlag<R extends { flagKey: string }>(rows: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const row of rows) {
    const group = out.get(row.flagKey);
    if (group === undefined) out.set(row.flagKey, [row]);
    else group.push(row);
  }
  return out;
}

/** A window's bounds that are set. */
const windowOf = (part: ValidityWindow): SnapshotWindow => ({
  ...(part.validFrom === undefined ? {} : { validFrom: part.validFrom }),
  ...(part.validUntil === undefined ? {} : { validUntil: part.validUntil }),
});

const prerequisiteOf = (p: Prerequisite): SnapshotPrerequisite =>
  p.variants === undefined ? { flagKey: p.flagKey, enabled: p.enabled === true } : { flagKey: p.flagKey, variants: [...p.variants] };

const byRank = <R extends { rank: number }>(rows: readonly R[]): R[] => [...rows].sort((a, b) => a.rank - b.rank);

function toSnapshotRules(
  flag: Flag,
  rules: readonly NamespaceStateRule[],
  segments: ReadonlyMap<string, SnapshotSegment>,
): SnapshotRule[] {
  const variants = new Map<string, Variant>(flag.variants.map((v) => [v.id, v]));
  return byRank(rules)
    .filter((rule) => rule.segmentKeysInOrder.length > 0)
    .map((rule) => ({
      id: rule.id,
      rank: rule.rank,
      segmentOperator: rule.segmentOperator,
      ...windowOf(rule),
      // Each rule once, whatever its segment count (Flipt repeats multi-segment rules; reference §2.11).
      segments: segmentsOf(rule.segmentKeysInOrder, segments, `rule "${rule.id}"`),
      distributions: rule.distributions.map((d): SnapshotDistribution => {
        const variant = variants.get(d.variantId);
        if (variant === undefined) throw new Error(`distribution "${d.id}" refers to variant "${d.variantId}", which flag "${flag.key}" does not hold`);
        // COMPAT(flipt): distribution `id` and `ruleId` are always "" in the snapshot.
        return { id: '', ruleId: '', variantId: variant.id, variantKey: variant.key, variantAttachment: variant.attachment, rollout: d.rollout };
      }),
    }));
}

function toSnapshotRollouts(
  rollouts: readonly NamespaceStateRollout[],
  segments: ReadonlyMap<string, SnapshotSegment>,
): SnapshotRollout[] {
  return byRank(rollouts).map((rollout) => {
    const out: SnapshotRollout = { type: rollout.type, rank: rollout.rank, ...windowOf(rollout) };
    if (rollout.segment !== undefined) {
      out.segment = {
        value: rollout.segment.value,
        segmentOperator: rollout.segment.segmentOperator,
        segments: segmentsOf(rollout.segmentKeysInOrder, segments, `rollout "${rollout.id}"`),
      };
    }
    if (rollout.threshold !== undefined) {
      out.threshold = { percentage: rollout.threshold.percentage, value: rollout.threshold.value };
      if (rollout.threshold.ramp !== undefined) out.threshold.ramp = rollout.threshold.ramp.map(({ at, percentage }) => ({ at, percentage }));
    }
    return out;
  });
}

/**
 * The snapshot flags of `state`'s flags (reference §2.11): what evaluators compile and what the
 * client-side snapshot endpoint serves. Pure; the same state always gives the same flags. The
 * state may be a whole namespace or only the flags a write touched, with the segments they use.
 */
export function buildSnapshotFlags(state: FlagsState): SnapshotFlag[] {
  const segments = new Map(state.segments.map((s) => [s.key, toSnapshotSegment(s)]));
  const rulesByFlag = byFlag(state.rules);
  const rolloutsByFlag = byFlag(state.rollouts);
  const schedulesByFlag = byFlag(state.schedules);
  return state.flags.map((flag): SnapshotFlag => {
    const isVariant = flag.type === 'VARIANT_FLAG_TYPE';
    const out: SnapshotFlag = {
      key: flag.key,
      name: flag.name,
      description: flag.description,
      enabled: flag.enabled,
      type: flag.type,
      createdAt: flag.createdAt,
      updatedAt: flag.updatedAt,
      rules: isVariant ? toSnapshotRules(flag, rulesByFlag.get(flag.key) ?? [], segments) : [],
      rollouts: isVariant ? [] : toSnapshotRollouts(rolloutsByFlag.get(flag.key) ?? [], segments),
    };
    const dv = flag.defaultVariant;
    if (dv !== undefined) out.defaultVariant = { id: dv.id, key: dv.key, attachment: dv.attachment };
    // Ensign's extensions, present only when set so flags without them keep Flipt's document and checksum.
    if (flag.prerequisites !== undefined) out.prerequisites = flag.prerequisites.map(prerequisiteOf);
    const schedules = schedulesByFlag.get(flag.key);
    if (schedules !== undefined) out.schedules = schedules.map(({ at, enabled }) => ({ at, enabled }));
    return out;
  });
}

/** A whole namespace's version, built from its state read at one revision. Throws `SnapshotInvalidError` when it does not compile. */
export function buildVersion(state: NamespaceState, options: CompileOptions): SnapshotVersion {
  return SnapshotVersion.build(state.namespace.key, state.revision, buildSnapshotFlags(state), options);
}
