import test from 'ava';
import {
  FlagType,
  lookup,
  readBoolean,
  readBooleanParam,
  readEnum,
  readInteger,
  readMessage,
  readNumber,
  readObject,
  readString,
  readStringArray,
  withPath,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

test('lookup accepts camelCase and snake_case, camelCase first, null as absent', (t) => {
  t.is(lookup({ segmentKeys: ['a'] }, 'segmentKeys') instanceof Array, true);
  t.deepEqual(lookup({ segment_keys: ['b'] }, 'segmentKeys'), ['b']);
  t.deepEqual(lookup({ segmentKeys: ['a'], segment_keys: ['b'] }, 'segmentKeys'), ['a']);
  t.deepEqual(lookup({ segmentKeys: null, segment_keys: ['b'] }, 'segmentKeys'), ['b']);
  t.is(lookup({ segment_keys: null }, 'segmentKeys'), undefined);
  t.is(lookup({}, 'segmentKeys'), undefined);
});

test('lookup ignores inherited properties', (t) => {
  t.is(lookup({}, 'constructor'), undefined);
  t.is(readString({}, 'toString'), '');
});

test('withPath lets path parameters win over body fields', (t) => {
  const src = withPath({ key: 'body', name: 'n' }, { key: 'path', other: undefined });
  t.is(readString(src, 'key'), 'path');
  t.is(readString(src, 'name'), 'n');
  t.false('other' in src);
});

test('readString: absent or null is "", wrong type names the field', (t) => {
  t.is(readString({}, 'name'), '');
  t.is(readString({ name: null }, 'name'), '');
  t.is(readString({ name: 'x' }, 'name'), 'x');
  assertInvalid(t, () => readString({ name: 1 }, 'name'), 'invalid field name: must be a string');
  assertInvalid(t, () => readString({ x: {} }, 'x', 'segment.x'), 'invalid field segment.x: must be a string');
});

test('readBoolean accepts only JSON booleans', (t) => {
  t.false(readBoolean({}, 'enabled'));
  t.true(readBoolean({ enabled: true }, 'enabled'));
  assertInvalid(t, () => readBoolean({ enabled: 'true' }, 'enabled'), 'invalid field enabled: must be a boolean');
  assertInvalid(t, () => readBoolean({ enabled: 1 }, 'enabled'), 'invalid field enabled: must be a boolean');
});

test('readBooleanParam accepts Go ParseBool spellings', (t) => {
  for (const yes of ['true', 'TRUE', 'True', 't', 'T', '1']) t.true(readBooleanParam({ force: yes }, 'force'), yes);
  for (const no of ['false', 'FALSE', 'False', 'f', 'F', '0']) t.false(readBooleanParam({ force: no }, 'force'), no);
  t.true(readBooleanParam({ force: true }, 'force'));
  t.false(readBooleanParam({}, 'force'));
  assertInvalid(t, () => readBooleanParam({ force: 'yes' }, 'force'), 'invalid field force: must be a boolean');
});

test('readInteger accepts numbers and numeric strings within int32', (t) => {
  t.is(readInteger({}, 'rank'), 0);
  t.is(readInteger({ rank: 3 }, 'rank'), 3);
  t.is(readInteger({ rank: '-12' }, 'rank'), -12);
  t.is(readInteger({ rank: 2.0 }, 'rank'), 2);
  assertInvalid(t, () => readInteger({ rank: 1.5 }, 'rank'), 'invalid field rank: must be an integer');
  assertInvalid(t, () => readInteger({ rank: '1.5' }, 'rank'), 'invalid field rank: must be an integer');
  assertInvalid(t, () => readInteger({ rank: 'one' }, 'rank'), 'invalid field rank: must be an integer');
  assertInvalid(t, () => readInteger({ rank: true }, 'rank'), 'invalid field rank: must be an integer');
  assertInvalid(t, () => readInteger({ rank: 2 ** 31 }, 'rank'), 'invalid field rank: must be a 32-bit integer');
  t.is(readInteger({ rank: -(2 ** 31) }, 'rank'), -(2 ** 31));
});

test('readNumber accepts finite numbers and numeric strings', (t) => {
  t.is(readNumber({}, 'rollout'), 0);
  t.is(readNumber({ rollout: 33.5 }, 'rollout'), 33.5);
  t.is(readNumber({ rollout: '12.25' }, 'rollout'), 12.25);
  t.is(readNumber({ rollout: '1e2' }, 'rollout'), 100);
  assertInvalid(t, () => readNumber({ rollout: 'half' }, 'rollout'), 'invalid field rollout: must be a number');
  assertInvalid(t, () => readNumber({ rollout: '' }, 'rollout'), 'invalid field rollout: must be a number');
  assertInvalid(t, () => readNumber({ rollout: [] }, 'rollout'), 'invalid field rollout: must be a number');
});

test('readStringArray wants an array of strings', (t) => {
  t.deepEqual(readStringArray({}, 'segmentKeys'), []);
  t.deepEqual(readStringArray({ segment_keys: ['a', 'b'] }, 'segmentKeys'), ['a', 'b']);
  const msg = 'invalid field segmentKeys: must be an array of strings';
  assertInvalid(t, () => readStringArray({ segmentKeys: 'a' }, 'segmentKeys'), msg);
  assertInvalid(t, () => readStringArray({ segmentKeys: ['a', 1] }, 'segmentKeys'), msg);
  assertInvalid(t, () => readStringArray({ segmentKeys: ['a', null] }, 'segmentKeys'), msg);
});

test('readEnum accepts the name or the proto integer', (t) => {
  t.is(readEnum({}, 'type', FlagType), undefined);
  t.is(readEnum({ type: 'BOOLEAN_FLAG_TYPE' }, 'type', FlagType), 'BOOLEAN_FLAG_TYPE');
  t.is(readEnum({ type: 1 }, 'type', FlagType), 'BOOLEAN_FLAG_TYPE');
  t.is(readEnum({ type: 0 }, 'type', FlagType), 'VARIANT_FLAG_TYPE');
  assertInvalid(t, () => readEnum({ type: 'BOOL' }, 'type', FlagType), 'invalid field type: unknown value "BOOL"');
  assertInvalid(t, () => readEnum({ type: 7 }, 'type', FlagType), 'invalid field type: unknown value 7');
  assertInvalid(t, () => readEnum({ type: '1' }, 'type', FlagType), 'invalid field type: unknown value "1"');
  assertInvalid(t, () => readEnum({ type: true }, 'type', FlagType), 'invalid field type: unknown value true');
});

test('readObject wants a JSON object', (t) => {
  t.is(readObject({}, 'metadata'), undefined);
  t.is(readObject({ metadata: null }, 'metadata'), undefined);
  t.deepEqual(readObject({ metadata: { a: 1 } }, 'metadata'), { a: 1 });
  const msg = 'invalid field metadata: must be a JSON object';
  assertInvalid(t, () => readObject({ metadata: [] }, 'metadata'), msg);
  assertInvalid(t, () => readObject({ metadata: '{}' }, 'metadata'), msg);
});

test('readMessage wants an object', (t) => {
  t.is(readMessage({ segment: null }, 'segment'), undefined);
  t.deepEqual(readMessage({ segment: { value: true } }, 'segment'), { value: true });
  assertInvalid(t, () => readMessage({ segment: 1 }, 'segment'), 'invalid field segment: must be an object');
});
