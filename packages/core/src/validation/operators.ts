/** Constraint operators (lower-case) and the comparison types that allow them. */
import type { ComparisonType } from '../enums.js';

export const STRING_OPERATORS: ReadonlySet<string> = new Set([
  'eq', 'neq', 'empty', 'notempty', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains',
]);
export const NUMBER_OPERATORS: ReadonlySet<string> = new Set([
  'eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof',
]);
export const BOOLEAN_OPERATORS: ReadonlySet<string> = new Set(['true', 'false', 'present', 'notpresent']);
export const ENTITY_ID_OPERATORS: ReadonlySet<string> = new Set([
  'eq', 'neq', 'isoneof', 'isnotoneof', 'contains', 'notcontains',
]);
/** Operators that compare nothing: their value may be empty and is stored as `""`. */
export const NO_VALUE_OPERATORS: ReadonlySet<string> = new Set([
  'true', 'false', 'empty', 'notempty', 'present', 'notpresent',
]);

/**
 * The operators allowed for a type and the type's name in error messages; undefined for UNKNOWN.
 * COMPAT(flipt): DATETIME reuses the NUMBER set.
 */
export const OPERATORS_BY_TYPE: Readonly<
  Partial<Record<ComparisonType, { name: string; operators: ReadonlySet<string> }>>
> = {
  STRING_COMPARISON_TYPE: { name: 'string', operators: STRING_OPERATORS },
  NUMBER_COMPARISON_TYPE: { name: 'number', operators: NUMBER_OPERATORS },
  BOOLEAN_COMPARISON_TYPE: { name: 'boolean', operators: BOOLEAN_OPERATORS },
  DATETIME_COMPARISON_TYPE: { name: 'datetime', operators: NUMBER_OPERATORS },
  ENTITY_ID_COMPARISON_TYPE: { name: 'entityId', operators: ENTITY_ID_OPERATORS },
};
