import test from 'ava';
import { fieldOfMessage, reasonOfMessage } from '../src/lib/field-errors.js';

test('a duplicate flag or variant key is about the key field', (t) => {
  t.is(fieldOfMessage('flag "default/checkout" is not unique'), 'key');
  t.is(fieldOfMessage('variant "blue" is not unique for flag "default/checkout"'), 'key');
  t.is(reasonOfMessage('variant "blue" is not unique for flag "default/checkout"'), 'variant "blue" is not unique for flag "default/checkout"');
});

test('invalid field messages name their field and keep the reason', (t) => {
  t.is(fieldOfMessage('invalid field key: contains invalid characters'), 'key');
  t.is(fieldOfMessage('invalid field threshold.percentage: must be within range [0, 100]'), 'threshold.percentage');
  t.is(reasonOfMessage('invalid field attachment: must be a json string'), 'must be a json string');
  t.is(fieldOfMessage('rank number: 2 already exists'), undefined);
});
