/**
 * A namespace's resources, as the store reads them or the management API returns them, as one
 * export document. COMPAT(flipt): internal/ext/exporter.go.
 */
import type { Flag, Namespace, Rollout, Rule, Segment } from '../resources.js';
import type { DocumentFlag, DocumentRollout, DocumentRule, FliptDocument } from './document-types.js';

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

function ruleOf(rule: Rule, variantKeys: ReadonlyMap<string, string>): DocumentRule {
  return {
    segmentKeys: keysOf(rule),
    segmentOperator: rule.segmentOperator,
    rank: rule.rank,
    distributions: rule.distributions.map((d) => ({ variantKey: variantKeys.get(d.variantId) ?? '', rollout: d.rollout })),
  };
}

function rolloutOf(rollout: Rollout): DocumentRollout {
  if (rollout.segment !== undefined) {
    const { segmentOperator, value } = rollout.segment;
    return { description: rollout.description, segment: { segmentKeys: keysOf(rollout.segment), segmentOperator, value } };
  }
  return { description: rollout.description, threshold: { percentage: rollout.threshold?.percentage ?? 0, value: rollout.threshold?.value ?? false } };
}

function flagOf(flag: Flag, rules: readonly Rule[], rollouts: readonly Rollout[]): DocumentFlag {
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
  };
}

export function documentOfResources(resources: NamespaceResources): FliptDocument {
  const rules = byFlag(resources.rules);
  const rollouts = byFlag(resources.rollouts);
  const { key, name, description } = resources.namespace;
  return {
    namespace: { key, name, description },
    flags: resources.flags.map((f) => flagOf(f, rules.get(f.key) ?? [], rollouts.get(f.key) ?? [])),
    segments: resources.segments.map((s) => ({
      key: s.key,
      name: s.name,
      description: s.description,
      matchType: s.matchType,
      constraints: s.constraints.map((c) => ({ type: c.type, property: c.property, operator: c.operator, value: c.value, description: c.description })),
    })),
  };
}
