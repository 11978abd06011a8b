/** The legacy `/api/v1/evaluate` and `/api/v1/batch-evaluate` routes and their response shape. */
import test from 'ava';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { assertError, FIXED_NOW, startServer, UUID } from './helpers/server.js';

const FIXED_TIMESTAMP = new Date(FIXED_NOW).toISOString();

test('evaluate: the legacy shape, echoing entity, context and the raw namespace', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/api/v1/evaluate', { requestId: 'l1', flagKey: 'color', entityId: 'u1', context: { plan: 'pro', drop: null } });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(Object.keys(reply.body), [
    'requestId', 'entityId', 'requestContext', 'match', 'flagKey', 'segmentKey', 'timestamp', 'value',
    'requestDurationMillis', 'attachment', 'reason', 'namespaceKey', 'segmentKeys',
  ]);
  t.like(reply.body, {
    requestId: 'l1',
    entityId: 'u1',
    requestContext: { plan: 'pro' },
    match: true,
    flagKey: 'color',
    segmentKey: 'pro-users',
    timestamp: FIXED_TIMESTAMP,
    value: 'blue',
    attachment: '{"hex":"#00f"}',
    reason: 'MATCH_EVALUATION_REASON',
    namespaceKey: '',
    segmentKeys: ['pro-users'],
  });
  t.deepEqual(reply.body.requestContext, { plan: 'pro' });
});

test('evaluate: defaults, disabled, the namespaced route and a fresh requestId', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const fallback = await api.post('/api/v1/evaluate', { flagKey: 'color', entityId: 'u1' });
  t.like(fallback.body, { match: false, value: 'red', reason: 'DEFAULT_EVALUATION_REASON', segmentKey: '', segmentKeys: [], requestContext: {} });
  t.regex(fallback.body.requestId, UUID);
  t.like((await api.post('/api/v1/evaluate', { flagKey: 'off', entityId: 'u1' })).body, { reason: 'FLAG_DISABLED_EVALUATION_REASON', value: 'red' });
  const namespaced = await api.post('/api/v1/namespaces/other/evaluate', { namespaceKey: 'default', flagKey: 'color', entityId: 'u1' });
  t.like(namespaced.body, { value: 'green', namespaceKey: 'other' });
  const bodyNamespace = await api.post('/api/v1/evaluate', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' });
  t.like(bodyNamespace.body, { value: 'green', namespaceKey: 'other' });
});

test('evaluate: flagKey and entityId are required; boolean flags and unknown flags fail', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.post('/api/v1/evaluate', { entityId: 'u1' }), 400, 3, 'invalid field flagKey: must not be empty');
  assertError(t, await api.post('/api/v1/evaluate', { flagKey: 'color' }), 400, 3, 'invalid field entityId: must not be empty');
  assertError(t, await api.post('/api/v1/evaluate', { flagKey: 'test-flag', entityId: 'u1' }), 400, 3, 'flag type BOOLEAN_FLAG_TYPE invalid');
  assertError(t, await api.post('/api/v1/namespaces/other/evaluate', { flagKey: 'nope', entityId: 'u1' }), 404, 5, 'flag "other/nope" not found');
  assertError(t, await api.post('/api/v1/evaluate', { flagKey: 'color', entityId: 'u1', context: { n: 3 } }), 400, 3, 'invalid field context.n: must be a string');
});

test('batch-evaluate: inherited namespace, blanked inner requestIds, the batch end time on each', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/api/v1/batch-evaluate', {
    requestId: 'lb',
    requests: [
      { requestId: 'gone', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
      { flagKey: 'foo', entityId: '2', namespaceKey: 'default' },
    ],
  });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(Object.keys(reply.body), ['requestId', 'responses', 'requestDurationMillis']);
  t.is(reply.body.requestId, 'lb');
  const [first, second] = reply.body.responses;
  t.like(first, { requestId: '', value: 'blue', namespaceKey: 'default', timestamp: FIXED_TIMESTAMP });
  t.like(second, { requestId: '', value: 'booz', namespaceKey: 'default', timestamp: FIXED_TIMESTAMP });
});

test('batch-evaluate: the namespaced route, mismatched namespaces, not-found handling', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const namespaced = await api.post('/api/v1/namespaces/other/batch-evaluate', { requests: [{ flagKey: 'color', entityId: 'u1' }] });
  t.like(namespaced.body.responses[0], { value: 'green', namespaceKey: 'other' });
  t.regex(namespaced.body.requestId, UUID);

  assertError(
    t,
    await api.post('/api/v1/namespaces/other/batch-evaluate', { requests: [{ flagKey: 'color', entityId: 'u1', namespaceKey: 'default' }] }),
    400,
    3,
    'invalid field namespace_key: must be the same for all requests if specified',
  );
  const requests = [
    { flagKey: 'nope', entityId: 'u1' },
    { flagKey: 'color', entityId: 'u1' },
  ];
  assertError(t, await api.post('/api/v1/batch-evaluate', { requests }), 404, 5, 'flag "default/nope" not found');
  const skipped = await api.post('/api/v1/batch-evaluate', { requests, excludeNotFound: true });
  t.is(skipped.status, 200, skipped.text);
  t.deepEqual(skipped.body.responses.map((r: { flagKey: string }) => r.flagKey), ['color']);
  const snake = await api.post('/api/v1/batch-evaluate', { requests, exclude_not_found: true });
  t.is(snake.body.responses.length, 1);
});

test('batch-evaluate: every item is validated first', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/api/v1/batch-evaluate', { requests: [{ flagKey: 'nope', entityId: 'u1' }, { flagKey: 'color' }] });
  assertError(t, reply, 400, 3, 'invalid field requests[1].entityId: must not be empty');
  assertError(t, await api.post('/api/v1/batch-evaluate', { excludeNotFound: 'yes' }), 400, 3, 'invalid field excludeNotFound: must be a boolean');
  assertError(t, await api.post('/api/v1/batch-evaluate', { requests: [{ flagKey: 'test-flag', entityId: 'u1' }] }), 400, 3, 'flag type BOOLEAN_FLAG_TYPE invalid');
});

test('GET on a legacy evaluate path is a 501; other /api/v1 paths are handed on', async (t) => {
  const api = await startServer(t, { source: readySource() });
  t.is((await api.get('/api/v1/evaluate')).status, 501);
  t.is((await api.get('/api/v1/namespaces/default/batch-evaluate')).status, 501);
  const handedOn = await api.get('/api/v1/namespaces/default/flags');
  t.is(handedOn.status, 418);
  t.is(handedOn.text, 'next');
  t.is((await api.post('/api/v1/namespaces/default/evaluate/extra', {})).status, 418);
});
