import test from 'ava';
import {
  decodeCreateConstraint,
  decodeCreateDistribution,
  decodeCreateFlag,
  decodeCreateNamespace,
  decodeCreateRollout,
  decodeCreateRule,
  decodeCreateSegment,
  decodeCreateVariant,
  decodeDeleteDistribution,
  decodeDeleteNamespace,
  decodeFlagItemRef,
  decodeKeyRef,
  decodeListInNamespace,
  decodeListNamespaces,
  decodeListRollouts,
  decodeListRules,
  decodeNamespaceRef,
  decodeOrderRollouts,
  decodeOrderRules,
  decodeSegmentItemRef,
  decodeUpdateConstraint,
  decodeUpdateDistribution,
  decodeUpdateFlag,
  decodeUpdateNamespace,
  decodeUpdateRollout,
  decodeUpdateRule,
  decodeUpdateSegment,
  decodeUpdateVariant,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

test('namespace create and update: empty body fills zero values, path key wins', (t) => {
  t.deepEqual(decodeCreateNamespace({}), { key: '', name: '', description: '' });
  t.deepEqual(decodeUpdateNamespace({ key: 'body', name: 'N', description: 'd', junk: 1 }, { key: 'path' }), {
    key: 'path',
    name: 'N',
    description: 'd',
  });
});

test('namespace reads: list paging, ref, delete with force', (t) => {
  t.deepEqual(decodeListNamespaces({ limit: '2', page_token: 'tok' }), {
    page: { limit: 2, offset: 0, pageToken: 'tok' },
  });
  t.deepEqual(decodeNamespaceRef({}, { key: 'ns' }), { key: 'ns' });
  t.deepEqual(decodeDeleteNamespace({ force: 'true' }, { key: 'ns' }), { key: 'ns', force: true });
  t.deepEqual(decodeDeleteNamespace({}, { key: 'ns' }), { key: 'ns', force: false });
  assertInvalid(t, () => decodeListNamespaces({ limit: 'ten' }), 'invalid field limit: must be an integer');
});

test('flag create: defaults, both spellings, enum by name or number', (t) => {
  t.deepEqual(decodeCreateFlag({}), {
    namespaceKey: '',
    key: '',
    name: '',
    description: '',
    enabled: false,
    type: 'VARIANT_FLAG_TYPE',
    metadata: undefined,
  });
  const flag = decodeCreateFlag(
    { namespace_key: 'body-ns', key: 'k', name: 'N', enabled: true, type: 1, metadata: { team: 'web' } },
    { namespaceKey: 'path-ns' },
  );
  t.is(flag.namespaceKey, 'path-ns');
  t.is(flag.type, 'BOOLEAN_FLAG_TYPE');
  t.true(flag.enabled);
  t.deepEqual(flag.metadata, { team: 'web' });
  t.is(decodeCreateFlag({ namespace_key: 'legacy' }).namespaceKey, 'legacy');
  assertInvalid(t, () => decodeCreateFlag({ type: 'NOPE' }), 'invalid field type: unknown value "NOPE"');
  assertInvalid(t, () => decodeCreateFlag({ enabled: 'yes' }), 'invalid field enabled: must be a boolean');
  assertInvalid(t, () => decodeCreateFlag({ metadata: [1] }), 'invalid field metadata: must be a JSON object');
});

test('flag update reads defaultVariantId in both spellings and ignores type', (t) => {
  const camel = decodeUpdateFlag({ name: 'N', defaultVariantId: 'v1', type: 'garbage' }, { key: 'f' });
  t.is(camel.defaultVariantId, 'v1');
  t.is(camel.key, 'f');
  t.false('type' in camel);
  t.is(decodeUpdateFlag({ default_variant_id: 'v2' }).defaultVariantId, 'v2');
  t.is(decodeUpdateFlag({ metadata: {} }).metadata !== undefined, true);
  t.is(decodeUpdateFlag({ metadata: null }).metadata, undefined);
});

test('flag and segment reads', (t) => {
  t.deepEqual(decodeListInNamespace({ limit: 5, offset: '3' }, { namespaceKey: 'ns' }), {
    namespaceKey: 'ns',
    page: { limit: 5, offset: 3, pageToken: '' },
  });
  t.deepEqual(decodeListInNamespace({ namespaceKey: 'q' }), {
    namespaceKey: 'q',
    page: { limit: 0, offset: 0, pageToken: '' },
  });
  t.deepEqual(decodeKeyRef({}, { key: 'f' }), { namespaceKey: '', key: 'f' });
});

test('variant create/update: attachment must be a string, id from path', (t) => {
  t.deepEqual(decodeCreateVariant({ key: 'v', attachment: '{"a":1}' }, { flagKey: 'f', namespaceKey: 'ns' }), {
    namespaceKey: 'ns',
    flagKey: 'f',
    key: 'v',
    name: '',
    description: '',
    attachment: '{"a":1}',
  });
  assertInvalid(
    t,
    () => decodeCreateVariant({ key: 'v', attachment: { a: 1 } }),
    'invalid field attachment: must be a string',
  );
  t.is(decodeUpdateVariant({ id: 'body', key: 'v' }, { id: 'path', flagKey: 'f' }).id, 'path');
  t.deepEqual(decodeFlagItemRef({}, { flagKey: 'f', id: 'x' }), { namespaceKey: '', flagKey: 'f', id: 'x' });
});

test('segment create/update: matchType default and both spellings', (t) => {
  t.is(decodeCreateSegment({}).matchType, 'ALL_MATCH_TYPE');
  t.is(decodeCreateSegment({ match_type: 'ANY_MATCH_TYPE' }).matchType, 'ANY_MATCH_TYPE');
  t.is(decodeUpdateSegment({ matchType: 1 }, { key: 's' }).matchType, 'ANY_MATCH_TYPE');
  assertInvalid(t, () => decodeCreateSegment({ matchType: 'SOME' }), 'invalid field matchType: unknown value "SOME"');
});

test('constraint create/update: type defaults to UNKNOWN', (t) => {
  const c = decodeCreateConstraint({ property: 'p', operator: 'EQ', value: 'v' }, { segmentKey: 's' });
  t.is(c.type, 'UNKNOWN_COMPARISON_TYPE');
  t.is(c.segmentKey, 's');
  t.is(c.operator, 'EQ');
  t.is(decodeCreateConstraint({ type: 2 }).type, 'NUMBER_COMPARISON_TYPE');
  t.is(decodeUpdateConstraint({}, { id: 'c1' }).id, 'c1');
  t.deepEqual(decodeSegmentItemRef({}, { segmentKey: 's', id: 'c' }), { namespaceKey: '', segmentKey: 's', id: 'c' });
  assertInvalid(t, () => decodeCreateConstraint({ type: 'TEXT' }), 'invalid field type: unknown value "TEXT"');
});

test('rule create/update/order/list', (t) => {
  t.deepEqual(decodeCreateRule({ segment_keys: ['a', 'b'], segment_operator: 'AND_SEGMENT_OPERATOR', rank: '2' }), {
    namespaceKey: '',
    flagKey: '',
    segmentKey: '',
    segmentKeys: ['a', 'b'],
    segmentOperator: 'AND_SEGMENT_OPERATOR',
    rank: 2,
  });
  t.is(decodeCreateRule({}).segmentOperator, 'OR_SEGMENT_OPERATOR');
  assertInvalid(t, () => decodeCreateRule({ rank: 'first' }), 'invalid field rank: must be an integer');
  assertInvalid(t, () => decodeCreateRule({ segmentKeys: 'a' }), 'invalid field segmentKeys: must be an array of strings');
  const upd = decodeUpdateRule({ segmentKey: 's', rank: 9 }, { flagKey: 'f', id: 'r' });
  t.is(upd.id, 'r');
  t.false('rank' in upd);
  t.deepEqual(decodeOrderRules({ rule_ids: ['a', 'b'] }, { flagKey: 'f' }).ids, ['a', 'b']);
  t.deepEqual(decodeListRules({ pageToken: 'x', limit: 1 }, { flagKey: 'f' }).page, {
    limit: 1,
    offset: 0,
    pageToken: 'x',
  });
});

test('distribution create/update/delete', (t) => {
  t.deepEqual(decodeCreateDistribution({ variant_id: 'v', rollout: '50.5' }, { flagKey: 'f', ruleId: 'r' }), {
    namespaceKey: '',
    flagKey: 'f',
    ruleId: 'r',
    variantId: 'v',
    rollout: 50.5,
  });
  t.is(decodeUpdateDistribution({ rollout: 1 }, { id: 'd' }).id, 'd');
  t.is(decodeDeleteDistribution({ variantId: 'v' }, { id: 'd' }).variantId, 'v');
  assertInvalid(t, () => decodeCreateDistribution({ rollout: 'lots' }), 'invalid field rollout: must be a number');
});

test('rollout create/update: nested segment and threshold in both spellings', (t) => {
  const seg = decodeCreateRollout(
    { rank: 1, segment: { segment_key: 's', segment_operator: 1, value: true } },
    { flagKey: 'f', namespaceKey: 'ns' },
  );
  t.deepEqual(seg.segment, { segmentKey: 's', segmentKeys: [], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true });
  t.is(seg.threshold, undefined);
  const thr = decodeUpdateRollout({ threshold: { percentage: '25', value: true }, segment: null }, { id: 'r' });
  t.deepEqual(thr.threshold, { percentage: 25, value: true });
  t.is(thr.segment, undefined);
  const both = decodeCreateRollout({ segment: {}, threshold: {} });
  t.truthy(both.segment);
  t.truthy(both.threshold);
  assertInvalid(
    t,
    () => decodeCreateRollout({ threshold: { percentage: 'x' } }),
    'invalid field threshold.percentage: must be a number',
  );
  assertInvalid(
    t,
    () => decodeCreateRollout({ segment: { segmentOperator: 'XOR' } }),
    'invalid field segment.segmentOperator: unknown value "XOR"',
  );
  assertInvalid(t, () => decodeCreateRollout({ threshold: 5 }), 'invalid field threshold: must be an object');
});

test('rollout order and list: no offset in list', (t) => {
  t.deepEqual(decodeOrderRollouts({ rolloutIds: ['a', 'b'] }, { flagKey: 'f' }).ids, ['a', 'b']);
  t.deepEqual(decodeListRollouts({ limit: '2', offset: '5' }, { flagKey: 'f' }).page, {
    limit: 2,
    offset: 0,
    pageToken: '',
  });
});
