/** The rows an import plan writes, table by table, in an order the foreign keys accept. */
import { randomUUID } from 'node:crypto';
import { parseTime, type Actor, type DocumentFlag, type DocumentSegment } from '@ensign/core';
import { createdByColumns, partStepRows } from '../flag-steps.js';
import { rampColumn, windowColumns } from '../loaders/window.js';
import type { NamespacePlan } from './import-plan.js';

type Row = Record<string, unknown>;

/** Parents before children. */
const TABLES = [
  'segments', 'constraints', 'flags', 'variants', 'rules', 'rule_segments', 'distributions',
  'rollouts', 'rollout_thresholds', 'rollout_segments', 'rollout_segment_references', 'flag_steps',
] as const;

type Rows = Record<(typeof TABLES)[number], Row[]>;

/** Each table with its rows, in the order of `TABLES`. */
export type TableRows = Array<[table: string, rows: Row[]]>;

export interface ImportRows {
  tables: TableRows;
  /** Each flag's default variant, set once both rows exist. */
  defaults: Array<[flagKey: string, variantId: string]>;
}

/**
 * `at` plus `offset` milliseconds. Lists and exports order by creation, and one import creates
 * everything at once: each row is stamped one millisecond after the one before it among its
 * siblings, so creation order is the documents' order.
 */
const stampAt = (base: number, offset: number): string => new Date(base + offset).toISOString();

/**
 * The creation time a row keeps (see `NamespacePlan.createdAt`), written as every stamp is
 * (UTC, milliseconds), so the canonical order (creation time, then key) compares the same in SQL
 * and in snapshots. The row's own `stamp` when there is none, it is no RFC 3339 time, or it is
 * later than the write.
 */
function createdAtOf(kept: string | undefined, stamp: string): string {
  const time = kept === undefined ? undefined : parseTime(kept);
  // A year outside 0000–9999 is written with a sign, which sorts before every digit.
  return time === undefined || time > stamp || time < '0000' ? stamp : time;
}

/** The stored form of metadata: NULL for none, else its JSON (as the flag repository writes it). */
const metadataColumn = (metadata: Record<string, unknown>): string | null =>
  Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata);

/** The stored form of prerequisites: NULL for none, else their JSON (as the flag repository writes them). */
const prerequisitesColumn = (flag: DocumentFlag): string | null =>
  flag.prerequisites === undefined || flag.prerequisites.length === 0 ? null : JSON.stringify(flag.prerequisites);

/**
 * The flag's state at `at`: a schedule whose time has come by the import is in effect from the
 * import itself, as evaluators hold it (the last one at or before `at` wins), so a document read
 * again after its schedules passed (a feature file, an old export) means what it meant.
 */
function enabledAt(flag: DocumentFlag, at: string): boolean {
  return (flag.schedules ?? []).filter((s) => s.at <= at).at(-1)?.enabled ?? flag.enabled;
}

/** The flag's schedules still to come after the import (`written`), pending, set up by `actor`; stamped in document order. */
function scheduleRows(ns: string, flag: DocumentFlag, written: string, actor: Actor | undefined, out: Rows): void {
  const base = Date.parse(written);
  (flag.schedules ?? [])
    .filter((s) => s.at > written)
    .forEach((s, i) => {
      const created = stampAt(base, i);
      out.flag_steps.push({
        id: randomUUID(), namespace_key: ns, flag_key: flag.key, at: s.at, kind: 'schedule', ref_id: '', enabled: s.enabled, detail: null,
        status: 'pending', ...createdByColumns(actor), created_at: created, applied_at: null,
      });
    });
}

function segmentRows(ns: string, segments: readonly DocumentSegment[], createdAt: ReadonlyMap<string, string>, base: number, out: Rows): void {
  segments.forEach((segment, i) => {
    const at = stampAt(base, i);
    out.segments.push({
      namespace_key: ns, key: segment.key, name: segment.name, description: segment.description, match_type: segment.matchType,
      created_at: createdAtOf(createdAt.get(segment.key), at), updated_at: at,
    });
    segment.constraints.forEach((c, j) => {
      const cAt = stampAt(base, j);
      out.constraints.push({
        id: randomUUID(), namespace_key: ns, segment_key: segment.key, type: c.type, property: c.property, operator: c.operator, value: c.value,
        description: c.description, created_at: cAt, updated_at: cAt,
      });
    });
  });
}

function ruleRows(ns: string, flag: DocumentFlag, variantIds: ReadonlyMap<string, string>, written: string, actor: Actor | undefined, out: Rows): void {
  const base = Date.parse(written);
  // Stored ranked 1..n in rank order (the document's ranks may have gaps or repeat).
  const ranked = flag.rules.map((rule, position) => ({ rule, position })).sort((a, b) => a.rule.rank - b.rule.rank || a.position - b.position);
  ranked.forEach(({ rule }, i) => {
    const id = randomUUID();
    const at = stampAt(base, i);
    out.rules.push({
      id, namespace_key: ns, flag_key: flag.key, rank: i + 1, segment_operator: rule.segmentOperator, ...windowColumns(rule), created_at: at, updated_at: at,
    });
    out.flag_steps.push(...partStepRows({ namespaceKey: ns, flagKey: flag.key, id, noun: 'rule', window: rule, ramp: undefined }, written, actor));
    rule.segmentKeys.forEach((segmentKey, position) => out.rule_segments.push({ rule_id: id, namespace_key: ns, segment_key: segmentKey, position }));
    rule.distributions.forEach((d, j) => {
      const dAt = stampAt(base, j);
      out.distributions.push({ id: randomUUID(), rule_id: id, variant_id: variantIds.get(d.variantKey), rollout: d.rollout, created_at: dAt, updated_at: dAt });
    });
  });
}

function rolloutRows(ns: string, flag: DocumentFlag, written: string, actor: Actor | undefined, out: Rows): void {
  const base = Date.parse(written);
  flag.rollouts.forEach((rollout, i) => {
    const id = randomUUID();
    const at = stampAt(base, i);
    const type = rollout.segment === undefined ? 'THRESHOLD_ROLLOUT_TYPE' : 'SEGMENT_ROLLOUT_TYPE';
    out.rollouts.push({
      id, namespace_key: ns, flag_key: flag.key, type, rank: i + 1, description: rollout.description, ...windowColumns(rollout), created_at: at, updated_at: at,
    });
    const ramp = rollout.threshold?.ramp;
    out.flag_steps.push(...partStepRows({ namespaceKey: ns, flagKey: flag.key, id, noun: 'rollout', window: rollout, ramp }, written, actor));
    if (rollout.segment === undefined) {
      out.rollout_thresholds.push({ rollout_id: id, percentage: rollout.threshold.percentage, value: rollout.threshold.value, ramp: rampColumn(ramp ?? []) });
      return;
    }
    const { segmentKeys, segmentOperator, value } = rollout.segment;
    out.rollout_segments.push({ rollout_id: id, segment_operator: segmentOperator, value });
    segmentKeys.forEach((segmentKey, position) => out.rollout_segment_references.push({ rollout_id: id, namespace_key: ns, segment_key: segmentKey, position }));
  });
}

/**
 * Every row of the plan, stamped from `at` (the write's time; flags and segments keep the creation
 * times the plan holds), with the pending steps of its
 * schedules, windows and ramps as set up by `actor`.
 */
export function importRows(plan: NamespacePlan, at: string, actor: Actor | undefined): ImportRows {
  const ns = plan.key;
  const base = Date.parse(at);
  const out = Object.fromEntries(TABLES.map((t) => [t, []])) as unknown as Rows;
  const defaults: Array<[string, string]> = [];
  segmentRows(ns, plan.segments, plan.createdAt.segments, base, out);
  plan.flags.forEach((flag, i) => {
    const fAt = stampAt(base, i);
    out.flags.push({
      namespace_key: ns, key: flag.key, name: flag.name, description: flag.description, enabled: enabledAt(flag, at), type: flag.type,
      default_variant_id: null, metadata: metadataColumn(flag.metadata), prerequisites: prerequisitesColumn(flag),
      created_at: createdAtOf(plan.createdAt.flags.get(flag.key), fAt), updated_at: fAt,
    });
    const variantIds = new Map<string, string>();
    flag.variants.forEach((v, j) => {
      const id = randomUUID();
      const vAt = stampAt(base, j);
      variantIds.set(v.key, id);
      if (v.default) defaults.push([flag.key, id]);
      out.variants.push({
        id, namespace_key: ns, flag_key: flag.key, key: v.key, name: v.name, description: v.description,
        // Compact JSON, as the API stores an attachment; '' for none.
        attachment: v.attachment === undefined ? '' : JSON.stringify(v.attachment),
        created_at: vAt, updated_at: vAt,
      });
    });
    ruleRows(ns, flag, variantIds, at, actor, out);
    rolloutRows(ns, flag, at, actor, out);
    scheduleRows(ns, flag, at, actor, out);
  });
  return { tables: TABLES.map((t) => [t, out[t]]), defaults };
}
