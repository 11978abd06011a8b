/** `/evaluate/v1`: variant, boolean and batch responses, the namespaced forms and the engine's failures. */
import test from 'ava';
import { defaultDocument, flag, hold, readySource } from '@ensign/testkit/snapshot-fixtures';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { assertError, FIXED_NOW, startServer, TIMESTAMP, UUID } from './helpers/server.js';

const FIXED_TIMESTAMP = new Date(FIXED_NOW).toISOString();

test('variant: a matching rule answers its variant with every response field', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant', { requestId: 'req-1', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  t.is(reply.status, 200, reply.text);
  t.is(reply.headers.get('content-type'), 'application/json');
  t.deepEqual(Object.keys(reply.body), ['match', 'segmentKeys', 'reason', 'variantKey', 'variantAttachment', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey']);
  t.like(reply.body, {
    match: true,
    segmentKeys: ['pro-users'],
    reason: 'MATCH_EVALUATION_REASON',
    variantKey: 'blue',
    variantAttachment: '{"hex":"#00f"}',
    requestId: 'req-1',
    timestamp: FIXED_TIMESTAMP,
    flagKey: 'color',
  });
  t.is(typeof reply.body.requestDurationMillis, 'number');
  t.true(reply.body.requestDurationMillis >= 0);
});

test('requestDurationMillis is written in whole nanoseconds, as Flipt writes it', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const path of ['/evaluate/v1/variant', '/evaluate/v1/boolean']) {
    for (let i = 0; i < 20; i++) {
      const reply = await api.post(path, { flagKey: path.endsWith('variant') ? 'color' : 'new-ui', entityId: `u${i}` });
      t.is(reply.status, 200, reply.text);
      const written = /"requestDurationMillis":([^,}]+)/.exec(reply.text)?.[1] ?? '';
      t.regex(written, /^\d+(\.\d{1,6})?$/, `${path}: ${written}`);
    }
  }
});

test('variant: no matching rule falls back to the default variant; no default is UNKNOWN', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const fallback = await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'free' } });
  t.like(fallback.body, { match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'red', variantAttachment: '{"hex":"#f00"}', segmentKeys: [] });
  const unknown = await api.post('/evaluate/v1/variant', { flagKey: 'plain', entityId: 'u1' });
  t.like(unknown.body, { match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '', variantAttachment: '', segmentKeys: [] });
});

test('variant: a disabled flag is FLAG_DISABLED and keeps the default variant key', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant', { flagKey: 'off', entityId: 'u1' });
  t.like(reply.body, { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: 'red' });
});

test('variant: crc32 bucketing reproduces Flipt\'s vectors', async (t) => {
  const api = await startServer(t, { source: readySource('crc32') });
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'foo', entityId: '1' })).body, { match: true, variantKey: 'boz' });
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'foo', entityId: '2' })).body, { match: true, variantKey: 'booz' });
});

test('a request without requestId gets a fresh UUID each time', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const one = await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' });
  const two = await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'u1' });
  t.regex(one.body.requestId, UUID);
  t.regex(two.body.requestId, UUID);
  t.not(one.body.requestId, two.body.requestId);
});

test('the timestamp is the real end time when no clock is given', async (t) => {
  const api = await startServer(t, { source: readySource(), now: Date.now });
  const before = Date.now();
  const reply = await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'u1' });
  t.regex(reply.body.timestamp, TIMESTAMP);
  const at = Date.parse(reply.body.timestamp);
  t.true(at >= before && at <= Date.now());
});

test('boolean: threshold, segment and fall-through (rollouts run even on a disabled flag)', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const threshold = await api.post('/evaluate/v1/boolean', { requestId: 'b1', flagKey: 'test-flag', entityId: 'test-entity' });
  t.is(threshold.status, 200, threshold.text);
  t.deepEqual(Object.keys(threshold.body), ['enabled', 'reason', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey', 'segmentKeys']);
  t.like(threshold.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON', requestId: 'b1', flagKey: 'test-flag', segmentKeys: [], timestamp: FIXED_TIMESTAMP });

  const bySegment = await api.post('/evaluate/v1/boolean', { flagKey: 'new-ui', entityId: 'c', context: { email: 'ann@corp.example' } });
  t.like(bySegment.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['internal'] });
  // crc32("anew-ui") % 100 = 1 < 50: the threshold rollout matches the disabled flag.
  const byThreshold = await api.post('/evaluate/v1/boolean', { flagKey: 'new-ui', entityId: 'a' });
  t.like(byThreshold.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  // crc32("cnew-ui") % 100 = 68: nothing matches, the flag's own (disabled) state answers.
  const fallThrough = await api.post('/evaluate/v1/boolean', { flagKey: 'new-ui', entityId: 'c' });
  t.like(fallThrough.body, { enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
  // crc32("test-entityfive") % 100 = 57, above 5%: the enabled flag's default.
  t.like((await api.post('/evaluate/v1/boolean', { flagKey: 'five', entityId: 'test-entity' })).body, { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
});

test('an unknown flag is a 404; a flag of the other type is a 400', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'nope', entityId: 'u1' }), 404, 5, 'flag "default/nope" not found');
  assertError(t, await api.post('/evaluate/v1/boolean', { namespaceKey: 'other', flagKey: 'nope', entityId: 'u1' }), 404, 5, 'flag "other/nope" not found');
  assertError(t, await api.post('/evaluate/v1/variant', { namespaceKey: 'ghost', flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "ghost/color" not found');
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'test-flag', entityId: 'u1' }), 400, 3, 'flag type BOOLEAN_FLAG_TYPE invalid');
  assertError(t, await api.post('/evaluate/v1/boolean', { flagKey: 'color', entityId: 'u1' }), 400, 3, 'flag type VARIANT_FLAG_TYPE invalid');
  assertError(t, await api.post('/evaluate/v1/variant', {}), 404, 5, 'flag "default/" not found');
});

test('a constraint of unknown type fails the evaluation with a 400, never a 500', async (t) => {
  const source = new InProcessSnapshotSource();
  const doc = defaultDocument();
  doc.flags.push(
    flag('broken', {
      rules: [
        {
          id: 'r-broken',
          rank: 1,
          segmentOperator: 'OR_SEGMENT_OPERATOR',
          segments: [{ key: 's', name: '', description: '', matchType: 'ALL_SEGMENT_MATCH_TYPE', constraints: [{ id: 'c', type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' }] }],
          distributions: [],
        },
      ],
    }),
  );
  hold(source, doc);
  source.markReady();
  const api = await startServer(t, { source });
  const reply = await api.post('/evaluate/v1/variant', { flagKey: 'broken', entityId: 'u1', context: { p: 'x' } });
  t.is(reply.status, 400, reply.text);
  t.is(reply.body.code, 3);
});

test('the namespace comes from the body, empty means default, and the path wins over the body', async (t) => {
  const api = await startServer(t, { source: readySource() });
  t.like((await api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'green' });
  t.like((await api.post('/evaluate/v1/variant', { namespaceKey: '', flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'red' });
  const pathWins = await api.post('/evaluate/v1/namespaces/other/variant', { namespaceKey: 'default', flagKey: 'color', entityId: 'u1' });
  t.is(pathWins.status, 200, pathWins.text);
  t.like(pathWins.body, { variantKey: 'green', flagKey: 'color' });
  const booleanPath = await api.post('/evaluate/v1/namespaces/default/boolean', { namespaceKey: 'other', flagKey: 'test-flag', entityId: 'test-entity' });
  t.like(booleanPath.body, { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  assertError(t, await api.post('/evaluate/v1/namespaces/other/boolean', { flagKey: 'test-flag', entityId: 'x' }), 404, 5, 'flag "other/test-flag" not found');
});

test('batch: variant, boolean and not-found items in order, with the batch\'s time on each', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/batch', {
    requestId: 'batch-1',
    requests: [
      { requestId: 'one', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
      { flagKey: 'test-flag', entityId: 'test-entity' },
      { flagKey: 'missing', entityId: 'u1' },
      { namespaceKey: 'ghost', flagKey: 'missing', entityId: 'u1' },
      { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' },
    ],
  });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(Object.keys(reply.body), ['requestId', 'responses', 'requestDurationMillis']);
  t.is(reply.body.requestId, 'batch-1');
  const [variant, boolean, missing, ghost, other] = reply.body.responses;
  t.is(variant.type, 'VARIANT_EVALUATION_RESPONSE_TYPE');
  t.like(variant.variantResponse, { requestId: 'one', match: true, variantKey: 'blue', flagKey: 'color', timestamp: FIXED_TIMESTAMP, requestDurationMillis: reply.body.requestDurationMillis });
  t.is(boolean.type, 'BOOLEAN_EVALUATION_RESPONSE_TYPE');
  t.like(boolean.booleanResponse, { requestId: '', enabled: true, flagKey: 'test-flag', timestamp: FIXED_TIMESTAMP, requestDurationMillis: reply.body.requestDurationMillis });
  t.deepEqual(missing, { type: 'ERROR_EVALUATION_RESPONSE_TYPE', errorResponse: { flagKey: 'missing', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' } });
  t.deepEqual(ghost.errorResponse, { flagKey: 'missing', namespaceKey: 'ghost', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  t.like(other.variantResponse, { variantKey: 'green' });
});

test('batch: a fresh requestId when none is sent; an empty batch answers no responses', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const empty = await api.post('/evaluate/v1/batch', {});
  t.is(empty.status, 200, empty.text);
  t.regex(empty.body.requestId, UUID);
  t.deepEqual(empty.body.responses, []);
  t.deepEqual((await api.post('/evaluate/v1/batch', { requests: [] })).body.responses, []);
});

test('batch: bad items are 400s naming the item', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.post('/evaluate/v1/batch', { requests: {} }), 400, 3, 'invalid field requests: must be an array');
  assertError(t, await api.post('/evaluate/v1/batch', { requests: [{ flagKey: 'color' }, 'x'] }), 400, 3, 'invalid field requests[1]: must be an object');
  assertError(t, await api.post('/evaluate/v1/batch', { requests: [{ flagKey: 'color', context: { n: 1 } }] }), 400, 3, 'invalid field requests[0].context.n: must be a string');
  assertError(t, await api.post('/evaluate/v1/batch', { requests: [{ flagKey: 7 }] }), 400, 3, 'invalid field requests[0].flagKey: must be a string');
});

test('batch: more than maxBatchSize requests is a 400; exactly the limit is served', async (t) => {
  const api = await startServer(t, { source: readySource(), maxBatchSize: 3 });
  const item = { flagKey: 'test-flag', entityId: 'e' };
  assertError(t, await api.post('/evaluate/v1/batch', { requests: [item, item, item, item] }), 400, 3, 'invalid field requests: must contain at most 3 items');
  t.is((await api.post('/evaluate/v1/batch', { requests: [item, item, item] })).body.responses.length, 3);
});
