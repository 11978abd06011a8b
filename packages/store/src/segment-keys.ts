import type { Knex } from 'knex';
import { emptyField } from '@ensign/core';
import { SegmentModel } from './models/segment.model.js';

/** The segment keys a rule or rollout request names, merged and de-duplicated in order; at least one. */
export function requestedSegmentKeys(input: { segmentKey: string; segmentKeys: readonly string[] }): string[] {
  const keys = input.segmentKey === '' ? [...input.segmentKeys] : [input.segmentKey, ...input.segmentKeys];
  const unique = [...new Set(keys.filter((k) => k !== ''))];
  if (unique.length === 0) throw emptyField('segmentKey or segmentKeys');
  return unique;
}

// COMPAT(flipt): exactly one segment is reported in `segmentKey` with `segmentKeys: []`; two or
// more in `segmentKeys` with `segmentKey: ""` (internal/storage/sql/common/rule.go).
/** The one-vs-many wire convention for the segments of a rule or segment rollout. */
export function presentSegmentKeys(keys: readonly string[]): { segmentKey: string; segmentKeys: string[] } {
  return keys.length === 1 ? { segmentKey: keys[0] ?? '', segmentKeys: [] } : { segmentKey: '', segmentKeys: [...keys] };
}

/** The first of `keys` that names no segment in the namespace, or undefined when all exist. */
export async function firstMissingSegment(
  db: Knex,
  namespaceKey: string,
  keys: readonly string[],
): Promise<string | undefined> {
  if (keys.length === 0) return undefined;
  const found = await SegmentModel.query(db)
    .select('key')
    .where('namespace_key', namespaceKey)
    .whereIn('key', [...keys]);
  const existing = new Set(found.map((row) => row.key));
  return keys.find((k) => !existing.has(k));
}
