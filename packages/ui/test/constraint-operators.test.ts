import { OPERATORS_BY_TYPE } from '@ensign/core';
import test from 'ava';
import { COMPARISON_TYPES, neverMatches, operatorLabel, operatorsFor, typeLabel, valueKind } from '../src/lib/constraint-operators.js';

test('each type offers exactly the operators the service allows for it', (t) => {
  for (const { value } of COMPARISON_TYPES) {
    t.deepEqual(
      operatorsFor(value).map((o) => o.value),
      [...(OPERATORS_BY_TYPE[value]?.operators ?? [])],
      value,
    );
  }
  t.deepEqual(
    operatorsFor('DATETIME_COMPARISON_TYPE').map((o) => o.value),
    operatorsFor('NUMBER_COMPARISON_TYPE').map((o) => o.value),
    'date-times share the number set',
  );
  t.deepEqual(operatorsFor('UNKNOWN_COMPARISON_TYPE'), []);
});

test('operators and types read as words', (t) => {
  t.is(operatorLabel('STRING_COMPARISON_TYPE', 'isoneof'), 'is one of');
  t.is(operatorLabel('NUMBER_COMPARISON_TYPE', 'gte'), 'greater than or equal');
  t.is(operatorLabel('DATETIME_COMPARISON_TYPE', 'gte'), 'at or after');
  t.is(operatorLabel('DATETIME_COMPARISON_TYPE', 'present'), 'is present');
  t.is(operatorLabel('STRING_COMPARISON_TYPE', 'weird'), 'weird');
  t.is(typeLabel('DATETIME_COMPARISON_TYPE'), 'Date-time');
  t.is(typeLabel('ENTITY_ID_COMPARISON_TYPE'), 'Entity ID');
  for (const { value } of COMPARISON_TYPES) {
    for (const op of operatorsFor(value)) t.true(op.label !== op.value || op.value === 'contains', `${value} ${op.value} has a label`);
  }
});

test('the value input fits the type and operator', (t) => {
  t.is(valueKind('STRING_COMPARISON_TYPE', 'eq'), 'text');
  t.is(valueKind('STRING_COMPARISON_TYPE', 'empty'), 'none');
  t.is(valueKind('STRING_COMPARISON_TYPE', 'isoneof'), 'list');
  t.is(valueKind('NUMBER_COMPARISON_TYPE', 'gte'), 'number');
  t.is(valueKind('NUMBER_COMPARISON_TYPE', 'isnotoneof'), 'list');
  t.is(valueKind('NUMBER_COMPARISON_TYPE', 'notpresent'), 'none');
  t.is(valueKind('BOOLEAN_COMPARISON_TYPE', 'true'), 'none');
  t.is(valueKind('DATETIME_COMPARISON_TYPE', 'lt'), 'datetime');
  t.is(valueKind('DATETIME_COMPARISON_TYPE', 'isoneof'), 'datetime', 'the service reads one date-time');
  t.is(valueKind('DATETIME_COMPARISON_TYPE', 'present'), 'none');
  t.is(valueKind('ENTITY_ID_COMPARISON_TYPE', 'isoneof'), 'list');
  t.is(valueKind('ENTITY_ID_COMPARISON_TYPE', 'contains'), 'text');
  t.true(neverMatches('DATETIME_COMPARISON_TYPE', 'isnotoneof'));
  t.false(neverMatches('NUMBER_COMPARISON_TYPE', 'isoneof'));
});
