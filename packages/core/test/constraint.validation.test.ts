import test from 'ava';
import {
  type ComparisonType,
  type CreateConstraint,
  validateCreateConstraint,
  validateSegmentItemRef,
  validateUpdateConstraint,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const base: CreateConstraint = {
  namespaceKey: '',
  segmentKey: 'beta',
  type: 'STRING_COMPARISON_TYPE',
  property: 'plan',
  operator: 'eq',
  value: 'pro',
  description: '',
};
const make = (over: Partial<CreateConstraint>): CreateConstraint => ({ ...base, ...over });

test('required fields in order: segmentKey, property, operator', (t) => {
  assertInvalid(t, () => validateCreateConstraint(make({ segmentKey: '', property: '' })), 'invalid field segmentKey: must not be empty');
  assertInvalid(t, () => validateCreateConstraint(make({ property: '', operator: '' })), 'invalid field property: must not be empty');
  assertInvalid(t, () => validateCreateConstraint(make({ operator: '' })), 'invalid field operator: must not be empty');
});

test('update also needs an id first', (t) => {
  assertInvalid(t, () => validateUpdateConstraint({ ...make({ segmentKey: '' }), id: '' }), 'invalid field id: must not be empty');
  t.is(validateUpdateConstraint({ ...base, id: 'c1' }).id, 'c1');
});

test('operator is lower-cased and namespace resolved', (t) => {
  const got = validateCreateConstraint(make({ operator: 'EQ' }));
  t.is(got.operator, 'eq');
  t.is(got.namespaceKey, 'default');
  t.is(got.value, 'pro');
});

const allowed: Record<Exclude<ComparisonType, 'UNKNOWN_COMPARISON_TYPE'>, string[]> = {
  STRING_COMPARISON_TYPE: ['eq', 'neq', 'empty', 'notempty', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains'],
  NUMBER_COMPARISON_TYPE: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof'],
  BOOLEAN_COMPARISON_TYPE: ['true', 'false', 'present', 'notpresent'],
  DATETIME_COMPARISON_TYPE: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent'],
  ENTITY_ID_COMPARISON_TYPE: ['eq', 'neq', 'isoneof', 'isnotoneof', 'contains', 'notcontains'],
};
const typeName: Record<string, string> = {
  STRING_COMPARISON_TYPE: 'string',
  NUMBER_COMPARISON_TYPE: 'number',
  BOOLEAN_COMPARISON_TYPE: 'boolean',
  DATETIME_COMPARISON_TYPE: 'datetime',
  ENTITY_ID_COMPARISON_TYPE: 'entityId',
};
const every = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'empty', 'notempty', 'true', 'false', 'present', 'notpresent', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains'];
const sampleValue: Record<string, string> = {
  STRING_COMPARISON_TYPE: 'x',
  NUMBER_COMPARISON_TYPE: '1',
  BOOLEAN_COMPARISON_TYPE: 'true',
  DATETIME_COMPARISON_TYPE: '2024-01-01',
  ENTITY_ID_COMPARISON_TYPE: 'user-1',
};

for (const [type, ops] of Object.entries(allowed)) {
  test(`operators allowed for ${type}`, (t) => {
    const property = type === 'ENTITY_ID_COMPARISON_TYPE' ? 'entityId' : 'p';
    for (const op of every) {
      // DATETIME list operators pass this check but fail on their value (tested below).
      if (type === 'DATETIME_COMPARISON_TYPE' && op.includes('oneof')) continue;
      const isList = op === 'isoneof' || op === 'isnotoneof';
      const value = isList ? (type === 'NUMBER_COMPARISON_TYPE' ? '[1,2]' : '["a"]') : (sampleValue[type] ?? '');
      const req = make({ type: type as ComparisonType, property, operator: op.toUpperCase(), value });
      if (ops.includes(op)) {
        t.is(validateCreateConstraint(req).operator, op, `${type} ${op}`);
      } else {
        assertInvalid(t, () => validateCreateConstraint(req), `constraint operator "${op.toUpperCase()}" is not valid for type ${typeName[type]}`);
      }
    }
  });
}

test('UNKNOWN type is refused', (t) => {
  assertInvalid(t, () => validateCreateConstraint(make({ type: 'UNKNOWN_COMPARISON_TYPE' })), 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"');
});

test('ENTITY_ID needs the entityId property, checked before the operator', (t) => {
  const req = make({ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'userId', operator: 'lt' });
  assertInvalid(t, () => validateCreateConstraint(req), 'property is userId instead of "entityId"');
  t.is(validateCreateConstraint({ ...req, property: 'entityId', operator: 'eq' }).value, 'pro');
});

test('value required except for no-value operators, whose value is cleared', (t) => {
  assertInvalid(t, () => validateCreateConstraint(make({ value: '' })), 'invalid field value: must not be empty');
  for (const [type, op] of [
    ['STRING_COMPARISON_TYPE', 'empty'],
    ['STRING_COMPARISON_TYPE', 'notempty'],
    ['NUMBER_COMPARISON_TYPE', 'present'],
    ['NUMBER_COMPARISON_TYPE', 'notpresent'],
    ['BOOLEAN_COMPARISON_TYPE', 'true'],
    ['BOOLEAN_COMPARISON_TYPE', 'false'],
  ] as const) {
    t.is(validateCreateConstraint(make({ type, operator: op, value: '' })).value, '', `${type} ${op} empty`);
    t.is(validateCreateConstraint(make({ type, operator: op, value: 'ignored' })).value, '', `${type} ${op} cleared`);
  }
});

test('datetime values: RFC 3339 to UTC without fraction, dates kept', (t) => {
  const dt = (value: string, operator = 'gt') =>
    validateCreateConstraint(make({ type: 'DATETIME_COMPARISON_TYPE', operator, value })).value;
  t.is(dt('2024-03-01T10:00:00Z'), '2024-03-01T10:00:00Z');
  t.is(dt('2024-03-01T10:00:00.987654+02:00'), '2024-03-01T08:00:00Z');
  t.is(dt('2024-12-31T23:30:00-01:00'), '2025-01-01T00:30:00Z');
  t.is(dt('2024-02-29'), '2024-02-29');
  for (const bad of ['2023-02-29', '2024-13-01', '2024-01-01T24:00:00Z', '2024-01-01T10:00:00', '2024-01-01 10:00:00Z', 'yesterday', '1700000000']) {
    assertInvalid(t, () => dt(bad), `parsing datetime from "${bad}"`);
  }
  t.is(dt('', 'present'), '');
  assertInvalid(t, () => dt('garbage', 'present'), 'parsing datetime from "garbage"');
});

test('datetime isoneof passes the operator check but its list value fails parsing', (t) => {
  assertInvalid(
    t,
    () => validateCreateConstraint(make({ type: 'DATETIME_COMPARISON_TYPE', operator: 'isoneof', value: '["2024-01-01"]' })),
    'parsing datetime from "[\\"2024-01-01\\"]"',
  );
});

test('isoneof/isnotoneof lists per type', (t) => {
  const list = (type: ComparisonType, value: string, operator = 'isoneof') =>
    validateCreateConstraint(
      make({ type, operator, value, property: type === 'ENTITY_ID_COMPARISON_TYPE' ? 'entityId' : 'plan' }),
    ).value;
  t.is(list('STRING_COMPARISON_TYPE', '["a","b"]'), '["a","b"]');
  t.is(list('NUMBER_COMPARISON_TYPE', '[1, 2.5]', 'isnotoneof'), '[1, 2.5]');
  t.is(list('ENTITY_ID_COMPARISON_TYPE', '["u1"]'), '["u1"]');
  t.is(list('STRING_COMPARISON_TYPE', '[]'), '[]');
  for (const bad of ['a', '"a"', '{"a":1}', '[1]', '["a",null]', 'null']) {
    assertInvalid(t, () => list('STRING_COMPARISON_TYPE', bad), 'invalid value provided for property "plan" of type string');
  }
  for (const bad of ['["1"]', '[true]', '1']) {
    assertInvalid(t, () => list('NUMBER_COMPARISON_TYPE', bad), 'invalid value provided for property "plan" of type number');
  }
  assertInvalid(t, () => list('ENTITY_ID_COMPARISON_TYPE', '[1]'), 'invalid value provided for property "entityId" of type entityId');
  const hundred = JSON.stringify(Array.from({ length: 100 }, (_, i) => `v${i}`));
  t.is(list('STRING_COMPARISON_TYPE', hundred), hundred);
  const tooMany = JSON.stringify(Array.from({ length: 101 }, (_, i) => i));
  assertInvalid(t, () => list('NUMBER_COMPARISON_TYPE', tooMany), 'too many values provided for property "plan" of type number (maximum 100)');
  const tooManyStrings = JSON.stringify(Array.from({ length: 101 }, (_, i) => `${i}`));
  assertInvalid(t, () => list('STRING_COMPARISON_TYPE', tooManyStrings), 'too many values provided for property "plan" of type string (maximum 100)');
  assertInvalid(t, () => list('ENTITY_ID_COMPARISON_TYPE', tooManyStrings), 'too many values provided for property "entityId" of type entityId (maximum 100)');
  assertInvalid(t, () => list('STRING_COMPARISON_TYPE', ''), 'invalid field value: must not be empty');
});

test('delete constraint: id then segmentKey', (t) => {
  t.deepEqual(validateSegmentItemRef({ namespaceKey: '', segmentKey: 's', id: 'c' }), { namespaceKey: 'default', segmentKey: 's', id: 'c' });
  assertInvalid(t, () => validateSegmentItemRef({ namespaceKey: '', segmentKey: '', id: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateSegmentItemRef({ namespaceKey: '', segmentKey: '', id: 'c' }), 'invalid field segmentKey: must not be empty');
});
