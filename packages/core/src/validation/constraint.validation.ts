import { emptyField, invalid } from '../errors.js';
import type { SegmentItemRef } from '../queries.js';
import type { CreateConstraint, UpdateConstraint } from '../requests.js';
import { requireValue, resolveNamespace } from './common.validation.js';
import { checkListValue, normaliseDateTime } from './constraint-value.js';
import { NO_VALUE_OPERATORS, OPERATORS_BY_TYPE } from './operators.js';

const ENTITY_PROPERTY = 'entityId';

/**
 * The rules shared by constraint create and update, in Flipt's order. Returns the constraint as
 * it is stored: operator lower-cased, datetime values normalised, no-value operators without value.
 */
function checkConstraint<T extends CreateConstraint>(req: T): T {
  requireValue(req.segmentKey, 'segmentKey');
  requireValue(req.property, 'property');
  requireValue(req.operator, 'operator');
  const operator = req.operator.toLowerCase();
  const allowed = OPERATORS_BY_TYPE[req.type];
  if (allowed === undefined) throw invalid(`invalid constraint type: ${JSON.stringify(req.type)}`);
  if (req.type === 'ENTITY_ID_COMPARISON_TYPE' && req.property !== ENTITY_PROPERTY) {
    throw invalid(`property is ${req.property} instead of "${ENTITY_PROPERTY}"`);
  }
  if (!allowed.operators.has(operator)) {
    throw invalid(`constraint operator ${JSON.stringify(req.operator)} is not valid for type ${allowed.name}`);
  }
  let value = req.value;
  if (value === '') {
    if (!NO_VALUE_OPERATORS.has(operator)) throw emptyField('value');
  } else if (req.type === 'DATETIME_COMPARISON_TYPE') {
    value = normaliseDateTime(value);
  } else if (operator === 'isoneof' || operator === 'isnotoneof') {
    checkListValue(req.type, value, req.property);
  }
  if (NO_VALUE_OPERATORS.has(operator)) value = '';
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey), operator, value };
}

export function validateCreateConstraint(req: CreateConstraint): CreateConstraint {
  return checkConstraint(req);
}

export function validateUpdateConstraint(req: UpdateConstraint): UpdateConstraint {
  requireValue(req.id, 'id');
  return checkConstraint(req);
}

/** Delete of a constraint: `id`, then `segmentKey`. */
export function validateSegmentItemRef(req: SegmentItemRef): SegmentItemRef {
  requireValue(req.id, 'id');
  requireValue(req.segmentKey, 'segmentKey');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}
