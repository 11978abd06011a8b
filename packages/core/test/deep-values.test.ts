import test from 'ava';
import { FlagType, MAX_OBJECT_DEPTH, readEnum, readObject } from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

test('an enum field holding an array or object is refused by its kind, however deeply it nests', (t) => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assertInvalid(t, () => readEnum({ type: deep }, 'type', FlagType), 'invalid field type: unknown value an array');
  assertInvalid(t, () => readEnum({ type: { a: 1 } }, 'type', FlagType), 'invalid field type: unknown value an object');
  assertInvalid(t, () => readEnum({ type: 7 }, 'type', FlagType), 'invalid field type: unknown value 7');
});

test('a free-form object nested deeper than the bound is refused naming the field; one at the bound is read', (t) => {
  const nested = (depth: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };
  assertInvalid(t, () => readObject({ metadata: nested(100_000) }, 'metadata'), `invalid field metadata: must not nest deeper than ${MAX_OBJECT_DEPTH} levels`);
  t.notThrows(() => JSON.stringify(readObject({ metadata: nested(MAX_OBJECT_DEPTH) }, 'metadata')));
});
