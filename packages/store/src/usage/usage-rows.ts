/** What a `UsageBatch` becomes in the count tables. */
import { createHash } from 'node:crypto';
import { invalid, type UsageBatch, type UsageCount } from '@ensign/core';
import { KEY } from '../migrations/create-table.js';
import { nsOf } from '../sql-util.js';

/** Width of the `reason` column. */
const REASON = 64;

/** One row of `evaluation_counts` or `evaluation_hours`. */
export interface CountRow {
  series: string;
  bucket: string;
  namespace_key: string;
  flag_key: string;
  value: string;
  reason: string;
  count: number;
}

/** One row of `flag_evaluations_last`. */
export interface LastRow {
  namespace_key: string;
  flag_key: string;
  last_evaluated_at: string;
}

/** Identifies a (namespace, flag, value, reason) in one short indexable column. */
const seriesOf = (ns: string, flagKey: string, value: string, reason: string): string =>
  createHash('sha256').update(JSON.stringify([ns, flagKey, value, reason])).digest('hex').slice(0, 32);

/**
 * A count the tables can hold. Keys longer than the columns cannot name a stored flag or variant
 * (their keys are validated to fit), so such counts are dropped rather than failing the batch for
 * ever; so are counts that are not positive whole numbers.
 */
const storable = (c: UsageCount): boolean =>
  Number.isSafeInteger(c.count) &&
  c.count > 0 &&
  c.flagKey !== '' &&
  c.namespaceKey.length <= KEY &&
  c.flagKey.length <= KEY &&
  c.value.length <= KEY &&
  c.reason.length <= REASON;

/** Refuses a batch that could never be stored, so its sender drops it instead of retrying. */
export function checkBatch(batch: UsageBatch): void {
  if (typeof batch.id !== 'string' || batch.id === '' || batch.id.length > KEY) throw invalid(`usage batch id must be 1 to ${KEY} characters`);
  if (!Number.isFinite(batch.at)) throw invalid(`usage batch "${batch.id}" has no valid time`);
}

/**
 * The batch's counts in `bucket`, one row per series (a series sent twice is summed: one
 * statement may not update a row twice), ordered by series so concurrent writers lock rows in the
 * same order.
 */
export function countRows(counts: readonly UsageCount[], bucket: string): CountRow[] {
  const rows = new Map<string, CountRow>();
  for (const c of counts) {
    if (!storable(c)) continue;
    const ns = nsOf(c.namespaceKey);
    const series = seriesOf(ns, c.flagKey, c.value, c.reason);
    const row = rows.get(series);
    if (row === undefined) rows.set(series, { series, bucket, namespace_key: ns, flag_key: c.flagKey, value: c.value, reason: c.reason, count: c.count });
    else row.count += c.count;
  }
  return [...rows.values()].sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : 0));
}

/** One row per flag counted, evaluated last at `at`, ordered by key for the same reason. */
export function lastRows(rows: readonly CountRow[], at: string): LastRow[] {
  const flags = new Map<string, LastRow>();
  for (const r of rows) flags.set(JSON.stringify([r.namespace_key, r.flag_key]), { namespace_key: r.namespace_key, flag_key: r.flag_key, last_evaluated_at: at });
  return [...flags.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
