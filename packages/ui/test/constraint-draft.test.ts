import type { Constraint } from '@ensign/core';
import test from 'ava';
import {
  decodeList,
  draftFromConstraint,
  draftWithTimeZone,
  draftWithType,
  emptyDraft,
  encodeList,
  requestOfDraft,
  splitPasted,
} from '../src/lib/constraint-draft.js';
import { fieldOfMessage } from '../src/lib/field-errors.js';

const stored = (over: Partial<Constraint>): Constraint => ({
  id: 'c1',
  namespaceKey: 'default',
  segmentKey: 's',
  type: 'STRING_COMPARISON_TYPE',
  property: 'plan',
  operator: 'eq',
  value: 'pro',
  description: '',
  createdAt: '',
  updatedAt: '',
  ...over,
});

test('lists are sent as the JSON arrays the service stores', (t) => {
  t.is(encodeList(['a', 'b'], 'STRING_COMPARISON_TYPE'), '["a","b"]');
  t.is(encodeList(['a', '', ' b '], 'ENTITY_ID_COMPARISON_TYPE'), '["a"," b "]', 'strings are kept as typed, empty items dropped');
  t.is(encodeList(['1', ' 2.5 ', '-3e2'], 'NUMBER_COMPARISON_TYPE'), '[1,2.5,-300]');
  t.is(encodeList(['18', 'abc'], 'NUMBER_COMPARISON_TYPE'), '[18,"abc"]', 'the service judges what is not a number');
  t.is(encodeList(['0x10', 'Infinity'], 'NUMBER_COMPARISON_TYPE'), '["0x10","Infinity"]');
  t.is(encodeList(['', ''], 'STRING_COMPARISON_TYPE'), '', 'an empty list is an empty value');
});

test('stored lists come back as items', (t) => {
  t.deepEqual(decodeList('["a","b"]'), ['a', 'b']);
  t.deepEqual(decodeList('[1,2.5]'), ['1', '2.5']);
  t.deepEqual(decodeList('[]'), ['']);
  t.deepEqual(decodeList(''), ['']);
  t.deepEqual(decodeList('not json'), ['not json']);
});

test('a draft sends the value its operator needs', (t) => {
  const draft = { ...emptyDraft('UTC'), property: ' plan ', text: 'pro', items: ['a', 'b'], wallTime: '2026-11-23T10:00' };
  t.deepEqual(requestOfDraft(draft), { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: '' });
  t.is(requestOfDraft({ ...draft, operator: 'isoneof' }).value, '["a","b"]');
  t.is(requestOfDraft({ ...draft, operator: 'notempty' }).value, '');
  t.is(requestOfDraft({ ...draft, type: 'NUMBER_COMPARISON_TYPE', operator: 'gte', text: ' 21 ' }).value, '21');
  t.is(requestOfDraft({ ...draft, type: 'DATETIME_COMPARISON_TYPE', operator: 'gt' }).value, '2026-11-23T10:00:00Z');
  t.is(requestOfDraft({ ...draft, type: 'DATETIME_COMPARISON_TYPE', operator: 'gt', timeZone: 'Europe/Berlin' }).value, '2026-11-23T09:00:00Z');
  t.is(requestOfDraft({ ...draft, type: 'BOOLEAN_COMPARISON_TYPE', operator: 'true' }).value, '');
});

test('changing the type keeps an allowed operator, else picks the first, and fixes the entity-id property', (t) => {
  const draft = { ...emptyDraft('UTC'), property: 'age', operator: 'isoneof' };
  t.is(draftWithType(draft, 'NUMBER_COMPARISON_TYPE').operator, 'isoneof');
  t.is(draftWithType(draft, 'BOOLEAN_COMPARISON_TYPE').operator, 'true');
  t.is(draftWithType({ ...draft, operator: 'prefix' }, 'NUMBER_COMPARISON_TYPE').operator, 'eq');
  const entity = draftWithType(draft, 'ENTITY_ID_COMPARISON_TYPE');
  t.is(entity.property, 'entityId');
  t.is(draftWithType(entity, 'STRING_COMPARISON_TYPE').property, '', 'the fixed property is not carried to other types');
  t.is(draftWithType({ ...draft, property: 'age' }, 'NUMBER_COMPARISON_TYPE').property, 'age');
});

test('a stored constraint fills the input of its kind', (t) => {
  t.deepEqual(draftFromConstraint(stored({ operator: 'isoneof', value: '["a","b"]' }), 'UTC').items, ['a', 'b']);
  const when = draftFromConstraint(stored({ type: 'DATETIME_COMPARISON_TYPE', operator: 'gte', value: '2026-11-23T09:00:00Z' }), 'Europe/Berlin');
  t.is(when.wallTime, '2026-11-23T10:00');
  t.is(requestOfDraft(when).value, '2026-11-23T09:00:00Z', 'saved unchanged');
  t.is(draftWithTimeZone(when, 'UTC').wallTime, '2026-11-23T09:00', 'another zone shows the same instant');
  const odd = draftFromConstraint(stored({ type: 'DATETIME_COMPARISON_TYPE', operator: 'gte', value: 'garbage' }), 'UTC');
  t.is(requestOfDraft(odd).value, 'garbage', 'a value the picker cannot show is kept');
  t.is(draftFromConstraint(stored({ type: 'NUMBER_COMPARISON_TYPE', operator: 'gt', value: '3' }), 'UTC').text, '3');
});

test("the service's messages about a constraint name its fields", (t) => {
  t.is(fieldOfMessage('invalid value provided for property "age" of type number'), 'value');
  t.is(fieldOfMessage('too many values provided for property "age" of type number (maximum 100)'), 'value');
  t.is(fieldOfMessage('parsing datetime from "2026-13-01"'), 'value');
  t.is(fieldOfMessage('constraint operator "lt" is not valid for type string'), 'operator');
  t.is(fieldOfMessage('property is user instead of "entityId"'), 'property');
  t.is(fieldOfMessage('invalid field property: must not be empty'), 'property');
});

test('pasted text fills several list items', (t) => {
  t.deepEqual(splitPasted('a\nb\n\nc d', false), ['a', 'b', 'c d']);
  t.deepEqual(splitPasted('1, 2 3;4', true), ['1', '2', '3', '4']);
  t.deepEqual(splitPasted('["x","y"]', false), ['x', 'y']);
  t.deepEqual(splitPasted('[1,2]', true), ['1', '2']);
  t.is(splitPasted('single value', false), undefined);
  t.is(splitPasted('[not json', false), undefined);
});
