/**
 * Turns a stored constraint into a plan, parsing its value once. A value Go would fail to parse at
 * evaluation time compiles to OP_NEVER (Flipt logs the error and counts no match); an operator the
 * type does not know also never matches; an unknown comparison type compiles to OP_UNKNOWN_TYPE.
 */
import type { SnapshotConstraint } from '../snapshot-document.js';
import { goParseFloat } from '../parsing/go-parse-float.js';
import { parseInstant } from '../parsing/go-datetime.js';
import { parseNumberList, parseStringList } from '../parsing/json-lists.js';
import * as P from './constraint-plan.js';
import type { ConstraintPlan } from './constraint-plan.js';

/** Compiles one constraint. */
export function compileConstraint(c: SnapshotConstraint): ConstraintPlan {
  // COMPAT(flipt): operators are stored lower-cased; older rows may not be, so compare lower-cased.
  const op = c.operator.toLowerCase();
  switch (c.type) {
    case 'STRING_CONSTRAINT_COMPARISON_TYPE':
      return stringPlan(op, c.property, false, c.value);
    case 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE':
      return stringPlan(op, c.property, true, c.value);
    case 'NUMBER_CONSTRAINT_COMPARISON_TYPE':
      return numberPlan(op, c.property, c.value);
    case 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE':
      return booleanPlan(op, c.property);
    case 'DATETIME_CONSTRAINT_COMPARISON_TYPE':
      return datetimePlan(op, c.property, c.value);
    default:
      return simple(P.OP_UNKNOWN_TYPE, c.property);
  }
}

const STRING_OPS: Readonly<Record<string, number>> = {
  empty: P.OP_STR_EMPTY,
  notempty: P.OP_STR_NOTEMPTY,
  eq: P.OP_STR_EQ,
  neq: P.OP_STR_NEQ,
  prefix: P.OP_STR_PREFIX,
  suffix: P.OP_STR_SUFFIX,
  contains: P.OP_STR_CONTAINS,
  notcontains: P.OP_STR_NOTCONTAINS,
};

const NUMBER_OPS: Readonly<Record<string, number>> = {
  eq: P.OP_NUM_EQ,
  neq: P.OP_NUM_NEQ,
  lt: P.OP_NUM_LT,
  lte: P.OP_NUM_LTE,
  gt: P.OP_NUM_GT,
  gte: P.OP_NUM_GTE,
};

const DATETIME_OPS: Readonly<Record<string, number>> = {
  eq: P.OP_DT_EQ,
  neq: P.OP_DT_NEQ,
  lt: P.OP_DT_LT,
  lte: P.OP_DT_LTE,
  gt: P.OP_DT_GT,
  gte: P.OP_DT_GTE,
};

function stringPlan(op: string, property: string, fromEntity: boolean, value: string): ConstraintPlan {
  if (op === 'isoneof' || op === 'isnotoneof') {
    const set = parseStringList(value);
    if (set === undefined) return simple(P.OP_NEVER, property);
    const code = op === 'isoneof' ? P.OP_STR_ONEOF : P.OP_STR_NOTONEOF;
    return P.constraintPlan(code, property, fromEntity, value, 0, 0, set, null);
  }
  const code = Object.hasOwn(STRING_OPS, op) ? STRING_OPS[op] : undefined;
  return P.constraintPlan(code ?? P.OP_NEVER, property, fromEntity, value, 0, 0, null, null);
}

function numberPlan(op: string, property: string, value: string): ConstraintPlan {
  const presence = presencePlan(op, property);
  if (presence !== undefined) return presence;
  if (op === 'isoneof' || op === 'isnotoneof') {
    const set = parseNumberList(value);
    if (set === undefined) return simple(P.OP_NEVER, property);
    const code = op === 'isoneof' ? P.OP_NUM_ONEOF : P.OP_NUM_NOTONEOF;
    return P.constraintPlan(code, property, false, value, 0, 0, null, set);
  }
  const code = Object.hasOwn(NUMBER_OPS, op) ? NUMBER_OPS[op] : undefined;
  const num = code === undefined ? undefined : goParseFloat(value);
  if (code === undefined || num === undefined) return simple(P.OP_NEVER, property);
  return P.constraintPlan(code, property, false, value, num, 0, null, null);
}

function booleanPlan(op: string, property: string): ConstraintPlan {
  const presence = presencePlan(op, property);
  if (presence !== undefined) return presence;
  if (op === 'true') return simple(P.OP_BOOL_TRUE, property);
  if (op === 'false') return simple(P.OP_BOOL_FALSE, property);
  return simple(P.OP_NEVER, property);
}

/** COMPAT(flipt): `isoneof`/`isnotoneof` on DATETIME pass validation but never match. */
function datetimePlan(op: string, property: string, value: string): ConstraintPlan {
  const presence = presencePlan(op, property);
  if (presence !== undefined) return presence;
  const code = Object.hasOwn(DATETIME_OPS, op) ? DATETIME_OPS[op] : undefined;
  const instant = code === undefined ? undefined : parseInstant(value);
  if (code === undefined || instant === undefined) return simple(P.OP_NEVER, property);
  return P.constraintPlan(code, property, false, value, instant.ms, instant.subMs, null, null);
}

function presencePlan(op: string, property: string): ConstraintPlan | undefined {
  if (op === 'present') return simple(P.OP_PRESENT, property);
  if (op === 'notpresent') return simple(P.OP_NOTPRESENT, property);
  return undefined;
}

function simple(op: number, property: string): ConstraintPlan {
  return P.constraintPlan(op, property, false, '', 0, 0, null, null);
}
