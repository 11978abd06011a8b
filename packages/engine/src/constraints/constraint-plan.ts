/**
 * A constraint compiled for evaluation: the comparison type and operator folded into one opcode, the
 * stored value parsed once. Every plan has the same shape so the matcher's property loads stay
 * monomorphic.
 */

/** Never matches: unknown operator, or a stored value that does not parse (Flipt: error → no match). */
export const OP_NEVER = 0;
/** A constraint of unknown comparison type: reaching it fails the evaluation (PARSE_ERROR). */
export const OP_UNKNOWN_TYPE = 1;

export const OP_STR_EMPTY = 2;
export const OP_STR_NOTEMPTY = 3;
export const OP_STR_EQ = 4;
export const OP_STR_NEQ = 5;
export const OP_STR_PREFIX = 6;
export const OP_STR_SUFFIX = 7;
export const OP_STR_ONEOF = 8;
export const OP_STR_NOTONEOF = 9;
export const OP_STR_CONTAINS = 10;
export const OP_STR_NOTCONTAINS = 11;

/** NUMBER, BOOLEAN and DATETIME share `present` / `notpresent` (trimmed value non-empty / empty). */
export const OP_PRESENT = 12;
export const OP_NOTPRESENT = 13;

export const OP_NUM_EQ = 14;
export const OP_NUM_NEQ = 15;
export const OP_NUM_LT = 16;
export const OP_NUM_LTE = 17;
export const OP_NUM_GT = 18;
export const OP_NUM_GTE = 19;
export const OP_NUM_ONEOF = 20;
export const OP_NUM_NOTONEOF = 21;

export const OP_BOOL_TRUE = 22;
export const OP_BOOL_FALSE = 23;

export const OP_DT_EQ = 24;
export const OP_DT_NEQ = 25;
export const OP_DT_LT = 26;
export const OP_DT_LTE = 27;
export const OP_DT_GT = 28;
export const OP_DT_GTE = 29;

/** One compiled constraint; fields a given opcode does not use hold neutral values. */
export interface ConstraintPlan {
  readonly op: number;
  /** The context key read (ignored when `fromEntity`). */
  readonly property: string;
  /** ENTITY_ID constraints compare the request's entity id instead of a context value. */
  readonly fromEntity: boolean;
  /** The stored value, for string operators. */
  readonly text: string;
  /** The parsed number, or the datetime's epoch milliseconds. */
  readonly num: number;
  /** A datetime's nanoseconds within its millisecond (Go compares instants to the nanosecond). */
  readonly subMs: number;
  readonly strings: ReadonlySet<string> | null;
  readonly numbers: ReadonlySet<number> | null;
}

/** Builds a plan; the one constructor keeps every plan on one hidden class. */
export function constraintPlan(
  op: number,
  property: string,
  fromEntity: boolean,
  text: string,
  num: number,
  subMs: number,
  strings: ReadonlySet<string> | null,
  numbers: ReadonlySet<number> | null,
): ConstraintPlan {
  return Object.freeze({ op, property, fromEntity, text, num, subMs, strings, numbers });
}
