/**
 * The constraint matcher of reference §5.1, over compiled plans. One switch on the opcode; no
 * allocation except `prefix`/`suffix` on a value with surrounding spaces.
 */
import { compareInstant } from '../parsing/go-datetime.js';
import { goParseBool } from '../parsing/go-parse-bool.js';
import { goParseFloat } from '../parsing/go-parse-float.js';
import { goTrimSpace, isGoBlank } from '../parsing/go-space.js';
import * as P from './constraint-plan.js';
import type { ConstraintPlan } from './constraint-plan.js';

/** Matched. */
export const MATCHED = 1;
/** Not matched (including any value that fails to parse). */
export const NOT_MATCHED = 0;
/** The constraint is of unknown type: the evaluation fails. */
export const UNKNOWN_TYPE = -1;

/** Evaluates one constraint: MATCHED, NOT_MATCHED or UNKNOWN_TYPE. */
export function matchConstraint(
  c: ConstraintPlan,
  context: Readonly<Record<string, string>>,
  entityId: string,
): number {
  const raw = c.fromEntity ? entityId : context[c.property];
  // A missing key and "" are the same; a non-string (inherited `constructor`, …) counts as missing.
  const v = typeof raw === 'string' ? raw : '';
  return matchValue(c, v) ? MATCHED : c.op === P.OP_UNKNOWN_TYPE ? UNKNOWN_TYPE : NOT_MATCHED;
}

function matchValue(c: ConstraintPlan, v: string): boolean {
  switch (c.op) {
    case P.OP_STR_EMPTY:
    case P.OP_NOTPRESENT:
      return isGoBlank(v);
    case P.OP_STR_NOTEMPTY:
    case P.OP_PRESENT:
      return !isGoBlank(v);
    case P.OP_NEVER:
    case P.OP_UNKNOWN_TYPE:
      return false;
  }
  // COMPAT(flipt): an empty value matches no other operator, not even neq / isnotoneof.
  if (v === '') return false;
  switch (c.op) {
    case P.OP_STR_EQ:
      return v === c.text;
    case P.OP_STR_NEQ:
      return v !== c.text;
    case P.OP_STR_PREFIX:
      return goTrimSpace(v).startsWith(c.text);
    case P.OP_STR_SUFFIX:
      return goTrimSpace(v).endsWith(c.text);
    case P.OP_STR_ONEOF:
      return (c.strings as ReadonlySet<string>).has(v);
    case P.OP_STR_NOTONEOF:
      return !(c.strings as ReadonlySet<string>).has(v);
    case P.OP_STR_CONTAINS:
      return v.includes(c.text);
    case P.OP_STR_NOTCONTAINS:
      return !v.includes(c.text);
    case P.OP_BOOL_TRUE:
      return goParseBool(v) === 1;
    case P.OP_BOOL_FALSE:
      return goParseBool(v) === 0;
  }
  if (c.op <= P.OP_NUM_NOTONEOF) return matchNumber(c, v);
  return matchDatetime(c, v);
}

function matchNumber(c: ConstraintPlan, v: string): boolean {
  const n = goParseFloat(v);
  if (n === undefined) return false;
  switch (c.op) {
    case P.OP_NUM_EQ:
      return n === c.num;
    case P.OP_NUM_NEQ:
      return n !== c.num;
    case P.OP_NUM_LT:
      return n < c.num;
    case P.OP_NUM_LTE:
      return n <= c.num;
    case P.OP_NUM_GT:
      return n > c.num;
    case P.OP_NUM_GTE:
      return n >= c.num;
    // Set membership is SameValueZero: -0 equals 0 as in Go, and NaN never occurs in a JSON list.
    case P.OP_NUM_ONEOF:
      return (c.numbers as ReadonlySet<number>).has(n);
    case P.OP_NUM_NOTONEOF:
      return !(c.numbers as ReadonlySet<number>).has(n);
    default:
      return false;
  }
}

function matchDatetime(c: ConstraintPlan, v: string): boolean {
  const cmp = compareInstant(v, c.num, c.subMs);
  if (Number.isNaN(cmp)) return false;
  switch (c.op) {
    case P.OP_DT_EQ:
      return cmp === 0;
    case P.OP_DT_NEQ:
      return cmp !== 0;
    case P.OP_DT_LT:
      return cmp < 0;
    case P.OP_DT_LTE:
      return cmp <= 0;
    case P.OP_DT_GT:
      return cmp > 0;
    case P.OP_DT_GTE:
      return cmp >= 0;
    default:
      return false;
  }
}
