/**
 * What the constraint dialog edits, kept apart per kind of value input so that switching the type
 * or operator back and forth loses nothing, and the request it sends: the value as the service
 * expects it (a JSON array for lists, RFC 3339 UTC for date-times, `""` when none is needed).
 */
import type { ComparisonType, Constraint } from '@ensign/core';
import { allowsOperator, ENTITY_ID_PROPERTY, operatorsFor, valueKind } from './constraint-operators.js';
import { utcToWallTime, wallTimeToUtc } from './zoned-datetime.js';

export interface ConstraintDraft {
  type: ComparisonType;
  property: string;
  operator: string;
  /** The value of a text or number input. */
  text: string;
  /** The items of a list value, as typed. */
  items: string[];
  /** The datetime-local value, read in `timeZone`. */
  wallTime: string;
  timeZone: string;
  description: string;
}

export interface ConstraintRequest {
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}

/** A new constraint: a string property compared with `eq`. */
export function emptyDraft(timeZone: string): ConstraintDraft {
  return { type: 'STRING_COMPARISON_TYPE', property: '', operator: 'eq', text: '', items: [''], wallTime: '', timeZone, description: '' };
}

/** A stored constraint, ready to edit; its value fills the input of its kind. */
export function draftFromConstraint(constraint: Constraint, timeZone: string): ConstraintDraft {
  const draft: ConstraintDraft = {
    ...emptyDraft(timeZone),
    type: constraint.type,
    property: constraint.property,
    operator: constraint.operator,
    description: constraint.description,
  };
  switch (valueKind(constraint.type, constraint.operator)) {
    case 'list':
      return { ...draft, items: decodeList(constraint.value) };
    case 'datetime': {
      const wall = utcToWallTime(constraint.value, timeZone);
      return wall === undefined ? { ...draft, text: constraint.value } : { ...draft, wallTime: wall };
    }
    default:
      return { ...draft, text: constraint.value };
  }
}

/**
 * The draft with another type: an operator the type does not allow becomes its first one, and an
 * entity-id constraint gets the one property the service accepts for it.
 */
export function draftWithType(draft: ConstraintDraft, type: ComparisonType): ConstraintDraft {
  const operator = allowsOperator(type, draft.operator) ? draft.operator : (operatorsFor(type)[0]?.value ?? '');
  let property = draft.property;
  if (type === 'ENTITY_ID_COMPARISON_TYPE') property = ENTITY_ID_PROPERTY;
  else if (draft.type === 'ENTITY_ID_COMPARISON_TYPE' && property === ENTITY_ID_PROPERTY) property = '';
  return { ...draft, type, operator, property };
}

/** A datetime-local value moved to another time zone, keeping the instant it stands for. */
export function draftWithTimeZone(draft: ConstraintDraft, timeZone: string): ConstraintDraft {
  const instant = wallTimeToUtc(draft.wallTime, draft.timeZone);
  const wallTime = instant === undefined ? draft.wallTime : (utcToWallTime(instant, timeZone) ?? draft.wallTime);
  return { ...draft, timeZone, wallTime };
}

/** The request body of the draft. */
export function requestOfDraft(draft: ConstraintDraft): ConstraintRequest {
  return {
    type: draft.type,
    property: draft.property.trim(),
    operator: draft.operator,
    value: valueOfDraft(draft),
    description: draft.description,
  };
}

/** The value as the service stores it; what cannot be converted is sent as typed for the service to judge. */
export function valueOfDraft(draft: ConstraintDraft): string {
  switch (valueKind(draft.type, draft.operator)) {
    case 'none':
      return '';
    case 'list':
      return encodeList(draft.items, draft.type);
    case 'datetime':
      if (draft.wallTime === '') return draft.text.trim();
      return wallTimeToUtc(draft.wallTime, draft.timeZone) ?? draft.wallTime;
    case 'number':
      return draft.text.trim();
    default:
      return draft.text;
  }
}

/**
 * List items as the JSON array the service expects (`["a","b"]`, `[1,2]` for numbers). Empty
 * items are left out and an empty list is `""` (which the service refuses as empty). A number
 * item that is not a number stays a string, so the service names the property it refuses.
 */
export function encodeList(items: readonly string[], type: ComparisonType): string {
  if (type === 'NUMBER_COMPARISON_TYPE') {
    const values = items.map((item) => item.trim()).filter((item) => item !== '');
    if (values.length === 0) return '';
    return JSON.stringify(values.map((item) => (isNumber(item) ? Number(item) : item)));
  }
  const values = items.filter((item) => item !== '');
  return values.length === 0 ? '' : JSON.stringify(values);
}

/** A stored list value as items to edit; a value that is not a JSON array becomes one item. */
export function decodeList(value: string): string[] {
  if (value === '') return [''];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.length === 0 ? [''] : parsed.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  } catch {
    // Not JSON: shown as the one item it is.
  }
  return [value];
}

/** A finite decimal number as JSON writes one (no hex, no empty string, no `Infinity`). */
function isNumber(text: string): boolean {
  return /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text));
}

/**
 * Items pasted into one item of a list: a JSON array, or one item per line (numbers may also be
 * separated by commas or spaces). Undefined when the text is a single item.
 */
export function splitPasted(text: string, numeric: boolean): string[] | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const items = decodeList(trimmed);
    if (items.length > 1 || items[0] !== trimmed) return items;
  }
  const parts = (numeric ? trimmed.split(/[\s,;]+/) : trimmed.split(/\r?\n/)).filter((part) => part !== '');
  return parts.length > 1 ? parts : undefined;
}
