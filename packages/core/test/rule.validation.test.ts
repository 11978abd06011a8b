import test from 'ava';
import {
  type CreateRule,
  validateCreateDistribution,
  validateCreateRule,
  validateDeleteDistribution,
  validateListRules,
  validateOrderRollouts,
  validateOrderRules,
  validateUpdateDistribution,
  validateUpdateRule,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const rule: CreateRule = {
  namespaceKey: '',
  flagKey: 'f',
  segmentKey: 'seg',
  segmentKeys: [],
  segmentOperator: 'AND_SEGMENT_OPERATOR',
  rank: 1,
};

test('create rule: single segmentKey moves into segmentKeys and forces OR', (t) => {
  t.deepEqual(validateCreateRule(rule), {
    ...rule,
    namespaceKey: 'default',
    segmentKey: '',
    segmentKeys: ['seg'],
    segmentOperator: 'OR_SEGMENT_OPERATOR',
  });
});

test('create rule: segmentKeys de-duplicated in order; one left forces OR', (t) => {
  const many = validateCreateRule({ ...rule, segmentKey: '', segmentKeys: ['b', 'a', 'b', 'c', 'a'] });
  t.deepEqual(many.segmentKeys, ['b', 'a', 'c']);
  t.is(many.segmentOperator, 'AND_SEGMENT_OPERATOR');
  const one = validateCreateRule({ ...rule, segmentKey: '', segmentKeys: ['a', 'a'] });
  t.deepEqual(one.segmentKeys, ['a']);
  t.is(one.segmentOperator, 'OR_SEGMENT_OPERATOR');
});

test('create rule: flagKey, segment XOR, rank > 0 in that order', (t) => {
  assertInvalid(t, () => validateCreateRule({ ...rule, flagKey: '', segmentKey: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateCreateRule({ ...rule, segmentKey: '', rank: 0 }), 'invalid field segmentKey or segmentKeys: must not be empty');
  assertInvalid(t, () => validateCreateRule({ ...rule, segmentKeys: ['x'], rank: 0 }), 'invalid field segmentKey or segmentKeys: only one can be present');
  assertInvalid(t, () => validateCreateRule({ ...rule, rank: 0 }), 'invalid field rank: must be greater than 0');
  assertInvalid(t, () => validateCreateRule({ ...rule, rank: -3 }), 'invalid field rank: must be greater than 0');
});

test('update rule: id, flagKey, segment XOR; normalised like create', (t) => {
  const upd = { namespaceKey: 'ns', flagKey: 'f', id: 'r', segmentKey: '', segmentKeys: ['a', 'b', 'a'], segmentOperator: 'AND_SEGMENT_OPERATOR' as const };
  t.deepEqual(validateUpdateRule(upd), { ...upd, segmentKeys: ['a', 'b'] });
  assertInvalid(t, () => validateUpdateRule({ ...upd, id: '', flagKey: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateUpdateRule({ ...upd, flagKey: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateUpdateRule({ ...upd, segmentKeys: [] }), 'invalid field segmentKey or segmentKeys: must not be empty');
  assertInvalid(t, () => validateUpdateRule({ ...upd, segmentKey: 's' }), 'invalid field segmentKey or segmentKeys: only one can be present');
});

test('order rules and rollouts: flagKey, at least two ids, none empty', (t) => {
  t.deepEqual(validateOrderRules({ namespaceKey: '', flagKey: 'f', ids: ['a', 'b'] }), { namespaceKey: 'default', flagKey: 'f', ids: ['a', 'b'] });
  assertInvalid(t, () => validateOrderRules({ namespaceKey: '', flagKey: '', ids: [] }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateOrderRules({ namespaceKey: '', flagKey: 'f', ids: ['a'] }), 'invalid field ruleIds: must contain atleast 2 elements');
  assertInvalid(t, () => validateOrderRules({ namespaceKey: '', flagKey: 'f', ids: ['a', ''] }), 'invalid field ruleIds: must not contain empty ids');
  assertInvalid(t, () => validateOrderRollouts({ namespaceKey: '', flagKey: 'f', ids: [] }), 'invalid field rolloutIds: must contain atleast 2 elements');
  assertInvalid(t, () => validateOrderRollouts({ namespaceKey: '', flagKey: 'f', ids: ['', 'b'] }), 'invalid field rolloutIds: must not contain empty ids');
});

test('list rules: flagKey and the limit rule', (t) => {
  const page = { limit: 0, offset: 0, pageToken: '' };
  t.deepEqual(validateListRules({ namespaceKey: '', flagKey: 'f', page }), { namespaceKey: 'default', flagKey: 'f', page: { limit: 0, offset: 0 } });
  assertInvalid(t, () => validateListRules({ namespaceKey: '', flagKey: '', page }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateListRules({ namespaceKey: '', flagKey: 'f', page: { ...page, offset: 1 } }), 'limit must be set when offset or pageToken is set');
});

const dist = { namespaceKey: '', flagKey: 'f', ruleId: 'r', variantId: 'v', rollout: 50 };

test('create/update distribution: required ids then rollout in [0, 100]', (t) => {
  t.deepEqual(validateCreateDistribution(dist), { ...dist, namespaceKey: 'default' });
  t.is(validateCreateDistribution({ ...dist, rollout: 0 }).rollout, 0);
  t.is(validateCreateDistribution({ ...dist, rollout: 100 }).rollout, 100);
  assertInvalid(t, () => validateCreateDistribution({ ...dist, flagKey: '', ruleId: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateCreateDistribution({ ...dist, ruleId: '', variantId: '' }), 'invalid field ruleId: must not be empty');
  assertInvalid(t, () => validateCreateDistribution({ ...dist, variantId: '' }), 'invalid field variantId: must not be empty');
  assertInvalid(t, () => validateCreateDistribution({ ...dist, rollout: -0.5 }), "invalid field rollout: must be greater than or equal to '0'");
  assertInvalid(t, () => validateCreateDistribution({ ...dist, rollout: 100.01 }), "invalid field rollout: must be less than or equal to '100'");
  assertInvalid(t, () => validateUpdateDistribution({ ...dist, id: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateUpdateDistribution({ ...dist, id: 'd', rollout: 101 }), "invalid field rollout: must be less than or equal to '100'");
  t.is(validateUpdateDistribution({ ...dist, id: 'd' }).id, 'd');
});

test('delete distribution: id, flagKey, ruleId, variantId', (t) => {
  const del = { namespaceKey: '', flagKey: 'f', ruleId: 'r', id: 'd', variantId: 'v' };
  t.is(validateDeleteDistribution(del).namespaceKey, 'default');
  assertInvalid(t, () => validateDeleteDistribution({ ...del, id: '' }), 'invalid field id: must not be empty');
  assertInvalid(t, () => validateDeleteDistribution({ ...del, flagKey: '' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, () => validateDeleteDistribution({ ...del, ruleId: '' }), 'invalid field ruleId: must not be empty');
  assertInvalid(t, () => validateDeleteDistribution({ ...del, variantId: '' }), 'invalid field variantId: must not be empty');
});
