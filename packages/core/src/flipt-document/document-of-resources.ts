/**
 * A namespace's resources, as the store reads them or the management API returns them, as one
 * export document. COMPAT(flipt): internal/ext/exporter.go.
 */
import type { Flag, Namespace, Rollout, Rule, Segment, ValidityWindow } from '../resources.js';
import type { DocumentFlag, DocumentRollout, DocumentRule, DocumentSchedule, FliptDocument } from './document-types.js';

/** Everything one namespace holds; lists in the order they are to be written. */
export interface NamespaceResources {
  namespace: Pick<Namespace, 'key' | 'name' | 'description'>;
  /** By creation, each with its variants (by creation) and `defaultVariant`. */
  flags: readonly Flag[];
  /** Every rule of those flags; written per flag in rank order. */
  rules: readonly Rule[];
  /** Every rollout of those flags; written per flag in rank order. */
  rollouts: readonly Rollout[];
  /** By creation, each with its constraints (by creation). */
  segments: readonly Segment[];
  /** The flags' pending schedules (Ensign's), by time. */
  schedules?: ReadonlyArray<DocumentSchedule & { flagKey: string }>;
}

/** The one-vs-many convention of the wire (`segmentKey` or `segmentKeys`) as one list. */
const keysOf = (ref: { segmentKey: string; segmentKeys: readonly string[] }): string[] =>
  ref.segmentKey !== '' ? [ref.segmentKey] : [...ref.segmentKeys];

/** A stored attachment is compact JSON text, `""` for none. */
const attachmentOf = (text: string): unknown => (text === '' ? undefined : (JSON.parse(text) as unknown));

function byFlag<R extends { flagKey: string; rank: number }>(items: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const item of items) {
    const list = out.get(item.flagKey);
    if (list === undefined) out.set(item.flagKey, [item]);
    else list.push(item);
  }
  for (const list of out.values()) list.sort((a, b) => a.rank - b.rank);
  return out;
}

/** Only the bounds that are set. */
const windowOf = (window: ValidityWindow): ValidityWindow => ({
  ...(window.validFrom === undefined ? {} : { validFrom: window.validFrom }),
  ...(window.validUntil === undefined ? {} : { validUntil: window.validUntil }),
});

function ruleOf(rule: Rule, variantKeys: ReadonlyMap<string, string>): DocumentRule {
  return {
    segmentKeys: keysOf(rule),
    segmentOperator: rule.segmentOperator,
    rank: rule.rank,
    distributions: rule.distributions.map((d) => ({ variantKey: variantKeys.get(d.variantId) ?? '', rollout: d.rollout })),
    ...windowOf(rule),
  };
}

function rolloutOf(rollout: Rollout): DocumentRollout {
  if (rollout.segment !== undefined) {
    const { segmentOperator, value } = rollout.segment;
    return { description: rollout.description, segment: { segmentKeys: keysOf(rollout.segment), segmentOperator, value }, ...windowOf(rollout) };
  }
  const ramp = rollout.threshold?.ramp;
  return {
    description: rollout.description,
    threshold: {
      percentage: rollout.threshold?.percentage ?? 0,
      value: rollout.threshold?.value ?? false,
      ...(ramp === undefined || ramp.length === 0 ? {} : { ramp: ramp.map((step) => ({ at: step.at, percentage: step.percentage })) }),
    },
    ...windowOf(rollout),
  };
}

function flagOf(flag: Flag, rules: readonly Rule[], rollouts: readonly Rollout[], schedules: readonly DocumentSchedule[]): DocumentFlag {
  const variantKeys = new Map(flag.variants.map((v) => [v.id, v.key]));
  return {
    key: flag.key,
    name: flag.name,
    type: flag.type,
    description: flag.description,
    enabled: flag.enabled,
    metadata: { ...(flag.metadata ?? {}) },
    variants: flag.variants.map((v) => ({
      key: v.key,
      name: v.name,
      description: v.description,
      default: flag.defaultVariant?.id === v.id,
      attachment: attachmentOf(v.attachment),
    })),
    rules: rules.map((r) => ruleOf(r, variantKeys)),
    rollouts: rollouts.map(rolloutOf),
    ...(flag.prerequisites === undefined || flag.prerequisites.length === 0 ? {} : { prerequisites: flag.prerequisites.map((p) => ({ ...p })) }),
    ...(schedules.length === 0 ? {} : { schedules: [...schedules] }),
  };
}

function schedulesByFlag(schedules: NamespaceResources['schedules']): Map<string, DocumentSchedule[]> {
  const out = new Map<string, DocumentSchedule[]>();
  for (const { flagKey, at, enabled } of schedules ?? []) {
    const list = out.get(flagKey);
    if (list === undefined) out.set(flagKey, [{ at, enabled }]);
    else list.push({ at, enabled });
  }
  return out;
}

export function documentOfResources(resources: NamespaceResources): FliptDocument {
  const rules = byFlag(resources.rules);
  const rollouts = byFlag(resources.rollouts);
  const schedules = schedulesByFlag(resources.schedules);
  const { key, name, description } = resources.namespace;
  return {
    namespace: { key, name, description },
    flags: resources.flags.map((f) => flagOf(f, rules.get(f.key) ?? [], rollouts.get(f.key) ?? [], schedules.get(f.key) ?? [])),
    segments: resources.segments.map((s) => ({
      key: s.key,
      name: s.name,
      description: s.description,
      matchType: s.matchType,
      constraints: s.constraints.map((c) => ({ type: c.type, property: c.property, operator: c.operator, value: c.value, description: c.description })),
    })),
  };
}
