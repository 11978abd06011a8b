/** The rows an import plan writes, table by table, in an order the foreign keys accept. */
import { randomUUID } from 'node:crypto';
import type { DocumentFlag, DocumentSegment } from '@ensign/core';
import type { NamespacePlan } from './import-plan.js';

type Row = Record<string, unknown>;

/** Parents before children. */
const TABLES = [
  'segments', 'constraints', 'flags', 'variants', 'rules', 'rule_segments', 'distributions',
  'rollouts', 'rollout_thresholds', 'rollout_segments', 'rollout_segment_references',
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

/** The stored form of metadata: NULL for none, else its JSON (as the flag repository writes it). */
const metadataColumn = (metadata: Record<string, unknown>): string | null =>
  Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata);

function segmentRows(ns: string, segments: readonly DocumentSegment[], base: number, out: Rows): void {
  segments.forEach((segment, i) => {
    const at = stampAt(base, i);
    out.segments.push({ namespace_key: ns, key: segment.key, name: segment.name, description: segment.description, match_type: segment.matchType, created_at: at, updated_at: at });
    segment.constraints.forEach((c, j) => {
      const cAt = stampAt(base, j);
      out.constraints.push({
        id: randomUUID(), namespace_key: ns, segment_key: segment.key, type: c.type, property: c.property, operator: c.operator, value: c.value,
        description: c.description, created_at: cAt, updated_at: cAt,
      });
    });
  });
}

function ruleRows(ns: string, flag: DocumentFlag, variantIds: ReadonlyMap<string, string>, base: number, out: Rows): void {
  // Stored ranked 1..n in rank order (the document's ranks may have gaps or repeat).
  const ranked = flag.rules.map((rule, position) => ({ rule, position })).sort((a, b) => a.rule.rank - b.rule.rank || a.position - b.position);
  ranked.forEach(({ rule }, i) => {
    const id = randomUUID();
    const at = stampAt(base, i);
    out.rules.push({ id, namespace_key: ns, flag_key: flag.key, rank: i + 1, segment_operator: rule.segmentOperator, created_at: at, updated_at: at });
    rule.segmentKeys.forEach((segmentKey, position) => out.rule_segments.push({ rule_id: id, namespace_key: ns, segment_key: segmentKey, position }));
    rule.distributions.forEach((d, j) => {
      const dAt = stampAt(base, j);
      out.distributions.push({ id: randomUUID(), rule_id: id, variant_id: variantIds.get(d.variantKey), rollout: d.rollout, created_at: dAt, updated_at: dAt });
    });
  });
}

function rolloutRows(ns: string, flag: DocumentFlag, base: number, out: Rows): void {
  flag.rollouts.forEach((rollout, i) => {
    const id = randomUUID();
    const at = stampAt(base, i);
    const type = rollout.segment === undefined ? 'THRESHOLD_ROLLOUT_TYPE' : 'SEGMENT_ROLLOUT_TYPE';
    out.rollouts.push({ id, namespace_key: ns, flag_key: flag.key, type, rank: i + 1, description: rollout.description, created_at: at, updated_at: at });
    if (rollout.segment === undefined) {
      out.rollout_thresholds.push({ rollout_id: id, percentage: rollout.threshold.percentage, value: rollout.threshold.value });
      return;
    }
    const { segmentKeys, segmentOperator, value } = rollout.segment;
    out.rollout_segments.push({ rollout_id: id, segment_operator: segmentOperator, value });
    segmentKeys.forEach((segmentKey, position) => out.rollout_segment_references.push({ rollout_id: id, namespace_key: ns, segment_key: segmentKey, position }));
  });
}

/** Every row of the plan, stamped from `at` (the write's time). */
export function importRows(plan: NamespacePlan, at: string): ImportRows {
  const ns = plan.key;
  const base = Date.parse(at);
  const out = Object.fromEntries(TABLES.map((t) => [t, []])) as unknown as Rows;
  const defaults: Array<[string, string]> = [];
  segmentRows(ns, plan.segments, base, out);
  plan.flags.forEach((flag, i) => {
    const fAt = stampAt(base, i);
    out.flags.push({
      namespace_key: ns, key: flag.key, name: flag.name, description: flag.description, enabled: flag.enabled, type: flag.type,
      default_variant_id: null, metadata: metadataColumn(flag.metadata), created_at: fAt, updated_at: fAt,
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
    ruleRows(ns, flag, variantIds, base, out);
    rolloutRows(ns, flag, base, out);
  });
  return { tables: TABLES.map((t) => [t, out[t]]), defaults };
}
