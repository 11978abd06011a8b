import test from 'ava';
import {
  type CreateRollout,
  type UpdateRollout,
  validateCreateRollout,
  validateListRollouts,
  validateUpdateRollout,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const segment = { segmentKey: 'internal', segmentKeys: [], segmentOperator: 'AND_SEGMENT_OPERATOR' as const, value: true };
const threshold = { percentage: 25, value: true };
const create: CreateRollout = { namespaceKey: '', flagKey: 'f', rank: 1, description: '', segment: undefined, threshold };
const update: UpdateRollout = { namespaceKey: 'ns', flagKey: 'f', id: 'r', description: '', segment: undefined, threshold };

test('create threshold rollout', (t) => {
  t.deepEqual(validateCreateRollout(create), { ...create, namespaceKey: 'default' });
  t.is(validateCreateRollout({ ...create, threshold: { percentage: 0, value: false } }).threshold?.percentage, 0);
  t.is(validateCreateRollout({ ...create, threshold: { percentage: 100, value: false } }).threshold?.percentage, 100);
});

test('threshold percentage within [0, 100]', (t) => {
  const msg = 'invalid field threshold.percentage: must be within range [0, 100]';
  assertInvalid(t, () => validateCreateRollout({ ...create, threshold: { percentage: -1, value: true } }), msg);
  assertInvalid(t, () => validateCreateRollout({ ...create, threshold: { percentage: 100.5, value: true } }), msg);
  assertInvalid(t, () => validateUpdateRollout({ ...update, threshold: { percentage: 101, value: true } }), msg);
});

test('segment rollout: keys normalised like rules', (t) => {
  const one = validateCreateRollout({ ...create, threshold: undefined, segment });
  t.deepEqual(one.segment, { segmentKey: '', segmentKeys: ['internal'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true });
  t.is(one.threshold, undefined);
  const many = validateUpdateRollout({ ...update, threshold: undefined, segment: { ...segment, segmentKey: '', segmentKeys: ['a', 'b', 'a'] } });
  t.deepEqual(many.segment, { segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true });
});

test('segment rollout: segmentKey XOR segmentKeys', (t) => {
  assertInvalid(
    t,
    () => validateCreateRollout({ ...create, threshold: undefined, segment: { ...segment, segmentKey: '' } }),
    'invalid field segmentKey or segmentKeys: must not be empty',
  );
  assertInvalid(
    t,
    () => validateUpdateRollout({ ...update, threshold: undefined, segment: { ...segment, segmentKeys: ['x'] } }),
    'invalid field segmentKey or segmentKeys: only one can be present',
  );
});

test('create: flagKey, both kinds, rank, missing rule', (t) => {
  assertInvalid(t, () => validateCreateRollout({ ...create, flagKey: '', rank: 0 }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateCreateRollout({ ...create, segment, rank: 0 }), 'invalid field segment or threshold: only one can be present');
  assertInvalid(t, () => validateCreateRollout({ ...create, rank: 0 }), 'invalid field rank: must be greater than 0');
  assertInvalid(t, () => validateCreateRollout({ ...create, rank: -1 }), 'invalid field rank: must be greater than 0');
  assertInvalid(t, () => validateCreateRollout({ ...create, threshold: undefined }), 'rollout rule is missing');
});

test('update: id, flagKey, both kinds, missing rule', (t) => {
  t.deepEqual(validateUpdateRollout(update), update);
  assertInvalid(t, () => validateUpdateRollout({ ...update, id: '', flagKey: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateUpdateRollout({ ...update, flagKey: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateUpdateRollout({ ...update, segment }), 'invalid field segment or threshold: only one can be present');
  assertInvalid(t, () => validateUpdateRollout({ ...update, threshold: undefined }), 'invalid field rule: invalid rollout rule type');
});

test('list rollouts: flagKey; a token without limit is accepted', (t) => {
  const token = Buffer.from('{"key":"x","offset":3}').toString('base64');
  t.deepEqual(validateListRollouts({ namespaceKey: '', flagKey: 'f', page: { limit: 0, offset: 0, pageToken: token } }), {
    namespaceKey: 'default',
    flagKey: 'f',
    page: { limit: 0, offset: 3 },
  });
  assertInvalid(t, () => validateListRollouts({ namespaceKey: '', flagKey: '', page: { limit: 0, offset: 0, pageToken: '' } }), 'invalid field flagKey: must not be empty');
});
