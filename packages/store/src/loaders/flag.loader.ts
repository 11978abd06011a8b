import type { Knex } from 'knex';
import type { Flag, Prerequisite, Variant } from '@ensign/core';
import { FlagModel } from '../models/flag.model.js';
import { toVariant, VariantModel } from '../models/variant.model.js';
import { groupBy, inChunks } from '../sql-util.js';

/** Flipt's SQL store reports `metadata: {}` in lists but omits it from a single get when unset. */
export type MetadataMode = 'list' | 'get';

/** A flag row as the wire reports it, given its variants by creation. */
export function toFlag(row: FlagModel, variants: Variant[], mode: MetadataMode): Flag {
  const flag: Flag = {
    namespaceKey: row.namespace_key,
    key: row.key,
    name: row.name,
    description: row.description,
    enabled: !!row.enabled,
    type: row.type,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    variants,
  };
  const defaultVariant = row.default_variant_id === null ? undefined : variants.find((v) => v.id === row.default_variant_id);
  if (defaultVariant !== undefined) flag.defaultVariant = defaultVariant;
  // COMPAT(flipt): lists carry `{}` for flags without metadata (internal/storage/sql/common/flag.go).
  if (row.metadata !== null) flag.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  else if (mode === 'list') flag.metadata = {};
  if (row.prerequisites !== null) flag.prerequisites = JSON.parse(row.prerequisites) as Prerequisite[];
  return flag;
}

/** Flags of one namespace with their variants (by creation). */
export async function withVariants(db: Knex, namespaceKey: string, rows: FlagModel[], mode: MetadataMode): Promise<Flag[]> {
  const variantRows = await inChunks(rows.map((r) => r.key), (keys) =>
    VariantModel.query(db)
      .where('namespace_key', namespaceKey)
      .whereIn('flag_key', keys)
      .orderBy([{ column: 'created_at' }, { column: 'key' }]),
  );
  const byFlag = groupBy(variantRows, (v) => v.flag_key);
  return rows.map((row) => toFlag(row, (byFlag.get(row.key) ?? []).map(toVariant), mode));
}

/** One flag with its variants, or undefined. */
export async function loadFlag(db: Knex, namespaceKey: string, key: string, mode: MetadataMode): Promise<Flag | undefined> {
  const row = await FlagModel.query(db).findById([namespaceKey, key]);
  if (row === undefined) return undefined;
  const [flag] = await withVariants(db, namespaceKey, [row], mode);
  return flag;
}
