/**
 * Promotion between namespaces: the management calls that make a target namespace's flags and
 * segments match a source's, in an order that succeeds when they run one after another in one
 * transaction (a change request's apply). Only what differs is proposed, so promoting a state the
 * target already holds proposes nothing.
 *
 * Order: segments (with their constraints); then per flag its creation or field-by-field update,
 * its variants, its rules (with their distributions, by variant key) and rollouts; then the flag
 * updates that set default variants and prerequisites, parents before children (a prerequisite's
 * parent must exist and hold its variants); variants the source dropped go last, once no rule,
 * default or prerequisite of the promoted flags uses them.
 */
import {
  type Constraint,
  type Flag,
  invalidField,
  notFound,
  type ProposedChange,
  requireValue,
  type Segment,
  type Variant,
} from '@ensign/core';
import type { NamespaceState, NamespaceStateRollout, NamespaceStateRule, SqlStore } from '@ensign/store';

/** What promotion reads of the store: each namespace whole, at one point in time. */
export type PromotionReader = Pick<SqlStore, 'readNamespaceState'>;

/**
 * Which flags and segments of which namespace to promote. With neither list, every flag and
 * segment of the source; with one or both, only those named.
 */
export interface PromotionRequest {
  from: string;
  flags?: readonly string[] | undefined;
  segments?: readonly string[] | undefined;
}

/**
 * The calls that make `target` match `request.from` for the flags and segments promoted. Flags
 * and segments only the target has are left alone. Errors: `from` is `target` or names a flag or
 * segment the source does not have (400), either namespace does not exist (404), a promoted flag
 * uses a segment or requires a flag that the target lacks and that is not promoted with it (400).
 */
export async function promotionChanges(reader: PromotionReader, target: string, request: PromotionRequest): Promise<ProposedChange[]> {
  requireValue(request.from, 'promoteFrom');
  if (request.from === target) throw invalidField('promoteFrom', `is the namespace promoted to ("${target}")`);
  const source = await readState(reader, request.from);
  const current = await readState(reader, target);
  const selection = select(source, request);
  checkReferences(source, current, selection, target);
  const plan = new Plan(`/api/v1/namespaces/${encodeURIComponent(target)}`);
  for (const segment of selection.segments) planSegment(plan, segment, current.segments.find((s) => s.key === segment.key));
  const from = new NamespaceIndex(source);
  const to = new NamespaceIndex(current);
  const finals: FlagFinal[] = [];
  for (const flag of selection.flags) finals.push(planFlag(plan, flag, from, to.flags.get(flag.key), to));
  for (const final of parentsFirst(finals)) if (final.update !== undefined) plan.add(final.update);
  for (const final of finals) plan.add(...final.dropVariants);
  return plan.changes;
}

async function readState(reader: PromotionReader, key: string): Promise<NamespaceState> {
  const state = await reader.readNamespaceState(key);
  if (state === undefined) throw notFound(`namespace "${key}" not found`);
  return state;
}

interface Selection {
  /** In the source's order (creation). */
  flags: Flag[];
  segments: Segment[];
}

function select(source: NamespaceState, request: PromotionRequest): Selection {
  if (request.flags === undefined && request.segments === undefined) return { flags: source.flags, segments: source.segments };
  return {
    flags: pick(source.flags, request.flags ?? [], 'flags', 'flag', source.namespace.key),
    segments: pick(source.segments, request.segments ?? [], 'segments', 'segment', source.namespace.key),
  };
}

/** The items named by `keys`, in `items`' order; a key the source lacks is refused naming it. */
function pick<T extends { key: string }>(items: readonly T[], keys: readonly string[], field: string, noun: string, from: string): T[] {
  const known = new Set(items.map((i) => i.key));
  const missing = keys.find((k) => !known.has(k));
  if (missing !== undefined) throw invalidField(field, `${noun} "${missing}" is not in namespace "${from}"`);
  const wanted = new Set(keys);
  return items.filter((i) => wanted.has(i.key));
}

/** A promoted flag's segments and prerequisite parents must be in the target already or promoted with it. */
function checkReferences(source: NamespaceState, current: NamespaceState, selection: Selection, target: string): void {
  const segments = new Set([...current.segments, ...selection.segments].map((s) => s.key));
  const flags = new Set([...current.flags, ...selection.flags].map((f) => f.key));
  const promoted = new Set(selection.flags.map((f) => f.key));
  const parts: Array<NamespaceStateRule | NamespaceStateRollout> = [...source.rules, ...source.rollouts];
  for (const part of parts) {
    if (!promoted.has(part.flagKey)) continue;
    const missing = part.segmentKeysInOrder.find((k) => !segments.has(k));
    if (missing !== undefined) {
      throw invalidField('segments', `flag "${part.flagKey}" uses segment "${missing}", which namespace "${target}" does not have: promote it too`);
    }
  }
  for (const flag of selection.flags) {
    const missing = (flag.prerequisites ?? []).find((p) => !flags.has(p.flagKey));
    if (missing !== undefined) {
      throw invalidField('flags', `flag "${flag.key}" requires flag "${missing.flagKey}", which namespace "${target}" does not have: promote it too`);
    }
  }
}

/** The calls so far, with paths under the target namespace. */
class Plan {
  readonly changes: ProposedChange[] = [];
  constructor(readonly base: string) {}

  add(...changes: ProposedChange[]): void {
    this.changes.push(...changes);
  }

  path(...parts: string[]): string {
    return `${this.base}/${parts.map(encodeURIComponent).join('/')}`;
  }
}

/** A namespace's rules and rollouts by flag, and each flag's variant keys by id. */
class NamespaceIndex {
  readonly flags: Map<string, Flag>;
  readonly rules: Map<string, NamespaceStateRule[]>;
  readonly rollouts: Map<string, NamespaceStateRollout[]>;

  constructor(state: NamespaceState) {
    this.flags = new Map(state.flags.map((f) => [f.key, f]));
    this.rules = byFlag(state.rules);
    this.rollouts = byFlag(state.rollouts);
  }
}

function byFlag<T extends { flagKey: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.flagKey);
    if (list === undefined) out.set(item.flagKey, [item]);
    else list.push(item);
  }
  return out;
}

/** JSON with object keys sorted, so equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

// ---- segments ----

const segmentFields = (s: Segment) => ({ name: s.name, description: s.description, matchType: s.matchType });

const constraintBody = (c: Constraint) => ({ type: c.type, property: c.property, operator: c.operator, value: c.value, description: c.description });

/**
 * A missing segment is created with its constraints; an existing one gets its fields put when
 * they differ, and its constraints compared as a multiset (their order means nothing to a match,
 * and constraints made in one transaction share a creation time): the target's extra ones are
 * deleted, the source's missing ones created.
 */
function planSegment(plan: Plan, segment: Segment, existing: Segment | undefined): void {
  const constraints = plan.path('segments', segment.key, 'constraints');
  if (existing === undefined) {
    plan.add({ method: 'POST', path: plan.path('segments'), body: { key: segment.key, ...segmentFields(segment) } });
    for (const c of segment.constraints) plan.add({ method: 'POST', path: constraints, body: constraintBody(c) });
    return;
  }
  if (canonical(segmentFields(segment)) !== canonical(segmentFields(existing))) {
    plan.add({ method: 'PUT', path: plan.path('segments', segment.key), body: segmentFields(segment) });
  }
  const unmatched = new Map<string, Constraint[]>();
  for (const c of existing.constraints) {
    const key = canonical(constraintBody(c));
    unmatched.set(key, [...(unmatched.get(key) ?? []), c]);
  }
  const create: Constraint[] = [];
  for (const c of segment.constraints) {
    const same = unmatched.get(canonical(constraintBody(c)));
    if (same !== undefined && same.length > 0) same.shift();
    else create.push(c);
  }
  for (const c of [...unmatched.values()].flat()) plan.add({ method: 'DELETE', path: plan.path('segments', segment.key, 'constraints', c.id) });
  for (const c of create) plan.add({ method: 'POST', path: constraints, body: constraintBody(c) });
}

// ---- flags ----

/** What is left to do for a flag once every flag's parts exist: its update, then dropping variants. */
interface FlagFinal {
  flag: Flag;
  update: ProposedChange | undefined;
  dropVariants: ProposedChange[];
}

const variantBody = (v: Variant) => ({ key: v.key, name: v.name, description: v.description, attachment: v.attachment });

/** The flag's fields a PUT sets (beside the default variant), with unset metadata and prerequisites as the empty values that clear them. */
const flagFields = (f: Flag) => ({
  name: f.name,
  description: f.description,
  enabled: f.enabled,
  metadata: f.metadata ?? {},
  prerequisites: f.prerequisites ?? [],
});

const windowOf = (part: { validFrom?: string; validUntil?: string }) => ({
  ...(part.validFrom === undefined ? {} : { validFrom: part.validFrom }),
  ...(part.validUntil === undefined ? {} : { validUntil: part.validUntil }),
});

/** One segment as `segmentKey`, several as `segmentKeys`, as Flipt's requests carry them. */
const segmentRef = (keys: readonly string[]) => (keys.length === 1 ? { segmentKey: keys[0] } : { segmentKeys: [...keys] });

/** A rule as it decides: segments, operator, distributions by variant key and rollout (in order: it sets the buckets), window. */
function ruleShape(rule: NamespaceStateRule, variants: readonly Variant[]) {
  const keyOf = new Map(variants.map((v) => [v.id, v.key]));
  return {
    segments: rule.segmentKeysInOrder,
    operator: rule.segmentOperator,
    distributions: rule.distributions.map((d) => ({ variantKey: keyOf.get(d.variantId) ?? d.variantId, rollout: d.rollout })),
    ...windowOf(rule),
  };
}

function rolloutShape(rollout: NamespaceStateRollout) {
  const { segment, threshold } = rollout;
  return {
    type: rollout.type,
    description: rollout.description,
    ...(segment === undefined ? {} : { segment: { keys: rollout.segmentKeysInOrder, operator: segment.segmentOperator, value: segment.value } }),
    ...(threshold === undefined ? {} : { threshold: { percentage: threshold.percentage, value: threshold.value, ramp: threshold.ramp ?? [] } }),
    ...windowOf(rollout),
  };
}

function ruleBody(rule: NamespaceStateRule, variants: readonly Variant[], rank: number) {
  const shape = ruleShape(rule, variants);
  return { ...segmentRef(shape.segments), segmentOperator: shape.operator, rank, distributions: shape.distributions, ...windowOf(rule) };
}

function rolloutBody(rollout: NamespaceStateRollout, rank: number) {
  const { segment, threshold } = rollout;
  return {
    rank,
    description: rollout.description,
    ...(segment === undefined ? {} : { segment: { ...segmentRef(rollout.segmentKeysInOrder), segmentOperator: segment.segmentOperator, value: segment.value } }),
    ...(threshold === undefined
      ? {}
      : { threshold: { percentage: threshold.percentage, value: threshold.value, ...(threshold.ramp === undefined || threshold.ramp.length === 0 ? {} : { ramp: threshold.ramp }) } }),
    ...windowOf(rollout),
  };
}

/**
 * Rules (rollouts) are ranked: the target keeps the longest run from the top that equals the
 * source's; the rest of its list is deleted and the rest of the source's created below it.
 */
function planRanked<T extends { id: string }>(
  plan: Plan,
  noun: 'rules' | 'rollouts',
  flagKey: string,
  wanted: readonly T[],
  held: readonly T[],
  shape: (item: T, side: 'source' | 'target') => unknown,
  body: (item: T, rank: number) => unknown,
): void {
  let kept = 0;
  while (kept < wanted.length && kept < held.length && canonical(shape(wanted[kept]!, 'source')) === canonical(shape(held[kept]!, 'target'))) kept++;
  for (const item of held.slice(kept)) plan.add({ method: 'DELETE', path: plan.path('flags', flagKey, noun, item.id) });
  wanted.slice(kept).forEach((item, i) => plan.add({ method: 'POST', path: plan.path('flags', flagKey, noun), body: body(item, kept + i + 1) }));
}

/**
 * A flag's calls up to its final update: created with its parts when the target lacks it (or has it
 * as another type, which cannot be changed: deleted first), otherwise its variants put or created
 * and its rules and rollouts replaced from the first that differs.
 */
function planFlag(plan: Plan, flag: Flag, source: NamespaceIndex, held: Flag | undefined, target: NamespaceIndex): FlagFinal {
  const rules = source.rules.get(flag.key) ?? [];
  const rollouts = source.rollouts.get(flag.key) ?? [];
  const flagPath = plan.path('flags', flag.key);
  let existing = held;
  if (existing !== undefined && existing.type !== flag.type) {
    plan.add({ method: 'DELETE', path: flagPath });
    existing = undefined;
  }
  if (existing === undefined) {
    const metadata = flag.metadata ?? {};
    plan.add({
      method: 'POST',
      path: plan.path('flags'),
      body: { key: flag.key, name: flag.name, description: flag.description, enabled: flag.enabled, type: flag.type, ...(Object.keys(metadata).length === 0 ? {} : { metadata }) },
    });
    for (const v of flag.variants) plan.add({ method: 'POST', path: plan.path('flags', flag.key, 'variants'), body: variantBody(v) });
    rules.forEach((r, i) => plan.add({ method: 'POST', path: plan.path('flags', flag.key, 'rules'), body: ruleBody(r, flag.variants, i + 1) }));
    rollouts.forEach((r, i) => plan.add({ method: 'POST', path: plan.path('flags', flag.key, 'rollouts'), body: rolloutBody(r, i + 1) }));
    const needsUpdate = flag.defaultVariant !== undefined || (flag.prerequisites ?? []).length > 0;
    return { flag, update: needsUpdate ? flagUpdate(flagPath, flag, undefined) : undefined, dropVariants: [] };
  }

  const heldVariants = new Map(existing.variants.map((v) => [v.key, v]));
  for (const v of flag.variants) {
    const same = heldVariants.get(v.key);
    if (same === undefined) plan.add({ method: 'POST', path: plan.path('flags', flag.key, 'variants'), body: variantBody(v) });
    else if (canonical(variantBody(v)) !== canonical(variantBody(same))) plan.add({ method: 'PUT', path: plan.path('flags', flag.key, 'variants', same.id), body: variantBody(v) });
  }
  const variantsOf = (side: 'source' | 'target') => (side === 'source' ? flag.variants : existing.variants);
  planRanked(plan, 'rules', flag.key, rules, target.rules.get(flag.key) ?? [], (r, side) => ruleShape(r, variantsOf(side)), (r, rank) => ruleBody(r, flag.variants, rank));
  planRanked(plan, 'rollouts', flag.key, rollouts, target.rollouts.get(flag.key) ?? [], (r) => rolloutShape(r), (r, rank) => rolloutBody(r, rank));

  const sameFields =
    canonical(flagFields(flag)) === canonical(flagFields(existing)) && flag.defaultVariant?.key === existing.defaultVariant?.key;
  const kept = new Set(flag.variants.map((v) => v.key));
  return {
    flag,
    update: sameFields ? undefined : flagUpdate(flagPath, flag, existing),
    dropVariants: existing.variants
      .filter((v) => !kept.has(v.key))
      .map((v): ProposedChange => ({ method: 'DELETE', path: plan.path('flags', flag.key, 'variants', v.id) })),
  };
}

/**
 * The PUT that gives a flag the source's fields, default variant and prerequisites. The default is
 * named by id when the target already holds that variant (Flipt's field), by key when it is made
 * in the same request (Ensign's `defaultVariantKey`).
 */
function flagUpdate(path: string, flag: Flag, existing: Flag | undefined): ProposedChange {
  const key = flag.defaultVariant?.key;
  const heldId = key === undefined ? undefined : existing?.variants.find((v) => v.key === key)?.id;
  const defaultVariant = key === undefined ? { defaultVariantId: '' } : heldId !== undefined ? { defaultVariantId: heldId } : { defaultVariantKey: key };
  return { method: 'PUT', path, body: { ...flagFields(flag), ...defaultVariant } };
}

/**
 * Parents before children by the source's prerequisites, otherwise in the source's order: when a
 * flag's prerequisites are put, every promoted parent already has its own, so no cycle the target
 * held between promoted flags gets in the way.
 */
function parentsFirst(finals: readonly FlagFinal[]): FlagFinal[] {
  const byKey = new Map(finals.map((f) => [f.flag.key, f]));
  const out: FlagFinal[] = [];
  const seen = new Set<string>();
  const visit = (final: FlagFinal): void => {
    if (seen.has(final.flag.key)) return;
    seen.add(final.flag.key);
    for (const p of final.flag.prerequisites ?? []) {
      const parent = byKey.get(p.flagKey);
      if (parent !== undefined) visit(parent);
    }
    out.push(final);
  };
  finals.forEach(visit);
  return out;
}
