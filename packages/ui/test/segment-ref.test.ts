import test from 'ava';
import { describeSegments, missingSegments, segmentKeysOf, segmentRefInput } from '../src/lib/segment-ref.js';

test('one segment reads from segmentKey, several from segmentKeys', (t) => {
  t.deepEqual(segmentKeysOf({ segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' }), ['beta']);
  t.deepEqual(segmentKeysOf({ segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR' }), ['a', 'b']);
  t.deepEqual(segmentKeysOf({ segmentKey: '', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' }), []);
});

test('a request names one segment by segmentKey and several with their operator', (t) => {
  t.deepEqual(segmentRefInput(['beta'], 'AND_SEGMENT_OPERATOR'), { segmentKey: 'beta' });
  t.deepEqual(segmentRefInput(['a', 'b'], 'AND_SEGMENT_OPERATOR'), { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
});

test('a rule reads as its segments joined by the operator', (t) => {
  t.is(describeSegments({ segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' }), 'beta');
  t.is(describeSegments({ segmentKey: '', segmentKeys: ['a', 'b', 'c'], segmentOperator: 'AND_SEGMENT_OPERATOR' }), 'a AND b AND c');
  t.deepEqual(missingSegments(['a', 'gone'], new Set(['a'])), ['gone']);
});
