/**
 * The comparison types and operators of a constraint, as the constraint dialog offers them: the
 * operators the service allows for each type (`OPERATORS_BY_TYPE`, where date-times share the
 * number set), in words, and which kind of value input each combination needs.
 */
import { type ComparisonType, NO_VALUE_OPERATORS, OPERATORS_BY_TYPE } from '@ensign/core';

/** The types a user may choose, in the order the dialog lists them. */
export const COMPARISON_TYPES: ReadonlyArray<{ value: ComparisonType; label: string }> = [
  { value: 'STRING_COMPARISON_TYPE', label: 'String' },
  { value: 'NUMBER_COMPARISON_TYPE', label: 'Number' },
  { value: 'BOOLEAN_COMPARISON_TYPE', label: 'Boolean' },
  { value: 'DATETIME_COMPARISON_TYPE', label: 'Date-time' },
  { value: 'ENTITY_ID_COMPARISON_TYPE', label: 'Entity ID' },
];

/** The property an entity-id constraint must name (the service refuses any other). */
export const ENTITY_ID_PROPERTY = 'entityId';

const GENERAL_LABELS: Readonly<Record<string, string>> = {
  eq: 'equals',
  neq: 'does not equal',
  empty: 'is empty',
  notempty: 'is not empty',
  prefix: 'starts with',
  suffix: 'ends with',
  contains: 'contains',
  notcontains: 'does not contain',
  isoneof: 'is one of',
  isnotoneof: 'is not one of',
  lt: 'less than',
  lte: 'less than or equal',
  gt: 'greater than',
  gte: 'greater than or equal',
  present: 'is present',
  notpresent: 'is not present',
  true: 'is true',
  false: 'is false',
};

/** Date-times compare as points in time. */
const DATETIME_LABELS: Readonly<Record<string, string>> = {
  eq: 'is at',
  neq: 'is not at',
  lt: 'before',
  lte: 'at or before',
  gt: 'after',
  gte: 'at or after',
};

/** The label of a type (`"Date-time"`), or the wire name for a type the dialog does not offer. */
export function typeLabel(type: ComparisonType): string {
  return COMPARISON_TYPES.find((t) => t.value === type)?.label ?? type;
}

/** An operator in words (`gte` → "greater than or equal"); unknown operators stay as sent. */
export function operatorLabel(type: ComparisonType, operator: string): string {
  const op = operator.toLowerCase();
  return (type === 'DATETIME_COMPARISON_TYPE' ? DATETIME_LABELS[op] : undefined) ?? GENERAL_LABELS[op] ?? operator;
}

/** The operators the service accepts for `type`, with their labels. */
export function operatorsFor(type: ComparisonType): Array<{ value: string; label: string }> {
  const allowed = OPERATORS_BY_TYPE[type]?.operators ?? new Set<string>();
  return [...allowed].map((value) => ({ value, label: operatorLabel(type, value) }));
}

/** Whether the service accepts `operator` for `type`. */
export function allowsOperator(type: ComparisonType, operator: string): boolean {
  return OPERATORS_BY_TYPE[type]?.operators.has(operator.toLowerCase()) ?? false;
}

/** What the value input of a constraint is: none, free text, a number, a date-time, or a list. */
export type ValueKind = 'none' | 'text' | 'number' | 'datetime' | 'list';

/**
 * The value input for `type` and `operator`. Lists are JSON arrays for strings, numbers and entity
 * ids; the service reads a date-time value as one date-time whatever the operator.
 */
export function valueKind(type: ComparisonType, operator: string): ValueKind {
  const op = operator.toLowerCase();
  if (NO_VALUE_OPERATORS.has(op) || type === 'BOOLEAN_COMPARISON_TYPE') return 'none';
  if (type === 'DATETIME_COMPARISON_TYPE') return 'datetime';
  if (op === 'isoneof' || op === 'isnotoneof') return 'list';
  return type === 'NUMBER_COMPARISON_TYPE' ? 'number' : 'text';
}

/** Date-time lists pass the service's checks but never match (as in Flipt): the dialog says so. */
export function neverMatches(type: ComparisonType, operator: string): boolean {
  const op = operator.toLowerCase();
  return type === 'DATETIME_COMPARISON_TYPE' && (op === 'isoneof' || op === 'isnotoneof');
}
