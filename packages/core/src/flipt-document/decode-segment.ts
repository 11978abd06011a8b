/** A document's segments and their constraints, checked as the management API checks them. */
import { ComparisonType, MatchType } from '../enums.js';
import { isAppError } from '../errors.js';
import { checkListValue, normaliseDateTime } from '../validation/constraint-value.js';
import { NO_VALUE_OPERATORS, OPERATORS_BY_TYPE } from '../validation/operators.js';
import { checkKey, readEnumName } from './decode-names.js';
import { eachObject, readList, readText, type DocumentObject, type Place } from './document-fields.js';
import type { DocumentConstraint, DocumentSegment } from './document-types.js';

const ENTITY_PROPERTY = 'entityId';

/** The constraint value as stored; the value checks' own messages are kept, at the value's path. */
function constraintValue(type: ComparisonType, operator: string, property: string, value: string, at: Place): string {
  if (NO_VALUE_OPERATORS.has(operator)) return '';
  if (value === '') return at.fail('must not be empty');
  try {
    if (type === 'DATETIME_COMPARISON_TYPE') return normaliseDateTime(value);
    if (operator === 'isoneof' || operator === 'isnotoneof') checkListValue(type, value, property);
    return value;
  } catch (err) {
    if (isAppError(err)) return at.fail(err.message);
    throw err;
  }
}

function decodeConstraint(obj: DocumentObject, at: Place): DocumentConstraint {
  const type = readEnumName(obj, 'type', ComparisonType, at, undefined);
  const operators = OPERATORS_BY_TYPE[type];
  if (operators === undefined) return at.field('type').fail(`must be one of ${Object.keys(OPERATORS_BY_TYPE).join(', ')}`);
  const property = readText(obj, 'property', at);
  if (property === '') at.field('property').fail('must not be empty');
  if (type === 'ENTITY_ID_COMPARISON_TYPE' && property !== ENTITY_PROPERTY) {
    at.field('property').fail(`must be "${ENTITY_PROPERTY}" for ENTITY_ID_COMPARISON_TYPE`);
  }
  const sent = readText(obj, 'operator', at);
  const operator = sent.toLowerCase();
  if (!operators.operators.has(operator)) {
    at.field('operator').fail(`${JSON.stringify(sent)} is not valid for type ${operators.name} (one of ${[...operators.operators].join(', ')})`);
  }
  return {
    type,
    property,
    operator,
    value: constraintValue(type, operator, property, readText(obj, 'value', at), at.field('value')),
    description: readText(obj, 'description', at),
  };
}

export function decodeSegment(obj: DocumentObject, at: Place): DocumentSegment {
  const key = checkKey(readText(obj, 'key', at), at.field('key'));
  const name = readText(obj, 'name', at);
  if (name === '') at.field('name').fail('must not be empty');
  const constraintsAt = at.field('constraints');
  return {
    key,
    name,
    description: readText(obj, 'description', at),
    // COMPAT(flipt): the importer reads a missing match type as ALL (MatchType_value[""] is 0).
    matchType: readEnumName(obj, 'match_type', MatchType, at, 'ALL_MATCH_TYPE'),
    constraints: eachObject(readList(obj, 'constraints', at), constraintsAt).map((c) => decodeConstraint(c.obj, c.at)),
  };
}
