/** Boolean flag evaluation, reference §6.3. */
import test from 'ava';
import { compileSnapshot, evaluateBoolean } from '@ensign/engine';
import type { HashMode, SnapshotFlag } from '@ensign/engine';
import { ENV, booleanFlag, constraint, doc, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

const internal = segment('internal', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'email', 'suffix', '@corp.example')]);
const beta = segment('beta', [constraint('BOOLEAN_CONSTRAINT_COMPARISON_TYPE', 'beta', 'true')]);

function evaluate(flag: SnapshotFlag, entityId: string, context: Record<string, string> = {}, hash: HashMode = 'crc32') {
  return evaluateBoolean(compileSnapshot(doc(flag), { hash }), { flagKey: flag.key, entityId, context }, ENV);
}

test('no rollouts: the flag\'s enabled value with DEFAULT', (t) => {
  t.deepEqual(evaluate(booleanFlag('f', [], true), 'e'), { enabled: true, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
  t.deepEqual(evaluate(booleanFlag('f', [], false), 'e'), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
});

test('rollouts are evaluated even when the flag is disabled; never FLAG_DISABLED', (t) => {
  const flag = booleanFlag('f', [segmentRollout(1, [internal], true)], false);
  t.deepEqual(evaluate(flag, 'e', { email: 'a@corp.example' }), {
    enabled: true,
    reason: 'MATCH_EVALUATION_REASON',
    segmentKeys: ['internal'],
  });
  t.deepEqual(evaluate(flag, 'e', { email: 'a@else.example' }), {
    enabled: false,
    reason: 'DEFAULT_EVALUATION_REASON',
    segmentKeys: [],
  });
});

test('a segment rollout returns its own value, which may be false', (t) => {
  const flag = booleanFlag('f', [segmentRollout(1, [internal], false)], true);
  t.deepEqual(evaluate(flag, 'e', { email: 'a@corp.example' }), {
    enabled: false,
    reason: 'MATCH_EVALUATION_REASON',
    segmentKeys: ['internal'],
  });
});

test('segment rollouts honour OR and AND', (t) => {
  const or = booleanFlag('f', [segmentRollout(1, [internal, beta], true, 'OR_SEGMENT_OPERATOR')], false);
  const and = booleanFlag('f', [segmentRollout(1, [internal, beta], true, 'AND_SEGMENT_OPERATOR')], false);
  t.like(evaluate(or, 'e', { beta: 'true' }), { enabled: true, segmentKeys: ['beta'] });
  t.like(evaluate(and, 'e', { beta: 'true' }), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  t.like(evaluate(and, 'e', { beta: 'T', email: 'x@corp.example' }), { enabled: true, segmentKeys: ['internal', 'beta'] });
});

test('threshold: crc32(entity + flag) % 100 = 65 for test-entity/test-flag (Flipt vector)', (t) => {
  const at = (percentage: number) => evaluate(booleanFlag('test-flag', [threshold(1, percentage, true)], false), 'test-entity');
  t.deepEqual(at(70), { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  t.deepEqual(at(5), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
  // float32(n) < float32(percentage): 65 < 65 is false; float32(65.000001) is 65; float32(65.00001) is above.
  t.like(at(65), { reason: 'DEFAULT_EVALUATION_REASON' });
  t.like(at(65.000001), { reason: 'DEFAULT_EVALUATION_REASON' });
  t.like(at(65.00001), { reason: 'MATCH_EVALUATION_REASON' });
  t.like(at(66), { reason: 'MATCH_EVALUATION_REASON' });
});

test('threshold edges: 0% never matches, 100% always does', (t) => {
  // Under crc32, e52 lands in threshold bucket 0 of test-flag and e363 in bucket 99.
  const flag = (p: number) => booleanFlag('test-flag', [threshold(1, p, true)], false);
  t.like(evaluate(flag(0), 'e52'), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  t.like(evaluate(flag(100), 'e363'), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  t.like(evaluate(flag(99), 'e363'), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  t.like(evaluate(flag(1), 'e52'), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
});

test('a missed threshold falls through to the next rollout; rollouts go by rank', (t) => {
  const flag = booleanFlag('test-flag', [threshold(2, 100, true), threshold(1, 5, false)], false);
  // Rank 1 (5%) misses bucket 65, rank 2 (100%) catches it.
  t.deepEqual(evaluate(flag, 'test-entity'), { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  const first = booleanFlag('test-flag', [segmentRollout(2, [internal], false), threshold(1, 70, true)]);
  t.like(evaluate(first, 'test-entity', { email: 'a@corp.example' }), { enabled: true, segmentKeys: [] });
});

test('a rollout with neither threshold nor segment is skipped', (t) => {
  const flag = booleanFlag('f', [{ type: 'UNKNOWN_ROLLOUT_TYPE', rank: 1 }, threshold(2, 100, false)], true);
  t.like(evaluate(flag, 'e'), { enabled: false, reason: 'MATCH_EVALUATION_REASON' });
});

test('a constraint of unknown type in a reached segment rollout is PARSE_ERROR', (t) => {
  const unknown = segment('u', [constraint('UNKNOWN_CONSTRAINT_COMPARISON_TYPE', 'p', 'eq', 'x')]);
  const flag = booleanFlag('test-flag', [segmentRollout(1, [unknown])], true);
  t.deepEqual(evaluate(flag, 'e'), { errorCode: 'PARSE_ERROR', message: 'unknown constraint type' });
  const shielded = booleanFlag('test-flag', [threshold(1, 100, true), segmentRollout(2, [unknown])], true);
  t.like(evaluate(shielded, 'test-entity'), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
});

test('unknown flag is FLAG_NOT_FOUND; a variant flag is TYPE_MISMATCH', (t) => {
  const compiled = compileSnapshot(doc(variantFlag('v', [])), { hash: 'murmur3' });
  t.deepEqual(evaluateBoolean(compiled, { flagKey: 'nope', entityId: 'e', context: {} }, ENV), {
    errorCode: 'FLAG_NOT_FOUND',
    message: 'flag "default/nope" not found',
  });
  t.deepEqual(evaluateBoolean(compiled, { flagKey: 'v', entityId: 'e', context: {} }, ENV), {
    errorCode: 'TYPE_MISMATCH',
    message: 'flag type VARIANT_FLAG_TYPE invalid',
  });
});
