/** Evaluation end to end against a real `ensign server` on SQLite: every route, and bad input. */
import anyTest from 'ava';
import { assertError, assertInvalid, assertNotFound, ok, uniqueKey, UUID } from '../helpers/api.js';
import { registerCoreFlow } from '../helpers/evaluation-flow.js';
import { type EvalTest, useEvaluationServer } from '../helpers/evaluation-harness.js';
import { SHOP_FLAGS, seedShop } from '../helpers/evaluation-seed.js';

const test = anyTest as EvalTest;
useEvaluationServer(test, 'sqlite');
registerCoreFlow(test);

test('an empty namespace means default', async (t) => {
  const { api } = t.context;
  const key = uniqueKey('default-flag');
  ok(await api.post('/api/v1/namespaces/default/flags', { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  t.like((await api.post('/evaluate/v1/boolean', { flagKey: key, entityId: 'u1' })).body, { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
  t.like((await api.post('/evaluate/v1/boolean', { namespaceKey: '', flagKey: key, entityId: 'u1' })).body, { enabled: true });
  t.like((await api.post('/ofrep/v1/evaluate/flags/' + key, { context: { targetingKey: 'u1' } })).body, { key, value: true });
  t.is((await api.post('/api/v1/evaluate', { flagKey: key, entityId: 'u1' })).status, 400);
  assertNotFound(t, await api.post('/evaluate/v1/variant', { flagKey: uniqueKey('nope'), entityId: 'u1' }), /^flag "default\/nope-[0-9a-f]+" not found$/);
});

test('OFREP: configuration, single flags of both types, errors in OFREP\'s body', async (t) => {
  const { api } = t.context;
  const { ns } = await seedShop(api, 'ofrep');
  const config = await api.get('/ofrep/v1/configuration');
  t.deepEqual(config.body, {
    name: 'flipt',
    capabilities: { cacheInvalidation: { polling: { enabled: false, minPollingIntervalMs: 0 } }, flagEvaluation: { supportedTypes: ['string', 'boolean'] } },
  });
  const headers = { 'X-Flipt-Namespace': ns };
  const color = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1', plan: 'pro' } }, headers);
  t.is(color.status, 200, color.text);
  t.deepEqual(color.body, { key: 'color', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'pro-users', attachment: '{"hex":"#00f"}' }, value: 'blue' });
  t.deepEqual((await api.post('/ofrep/v1/evaluate/flags/off', { context: { targetingKey: 'u1' } }, headers)).body, { key: 'off', reason: 'DISABLED', variant: 'red', metadata: {}, value: 'red' });
  const newUi = await api.post('/ofrep/v1/evaluate/flags/new-ui', { context: { targetingKey: 'ann', email: 'ann@corp.example' } }, headers);
  t.deepEqual(newUi.body, { key: 'new-ui', reason: 'TARGETING_MATCH', variant: 'true', metadata: {}, value: true });

  const missing = await api.post('/ofrep/v1/evaluate/flags/nope', { context: { targetingKey: 'u1' } }, headers);
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found nope' });
  // Without the header the namespace is default, where `color` of this test does not exist.
  t.is((await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } })).status, 404);
  const bad = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1', age: 30 } }, headers);
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid field context.age: must be a string' });
});

test('OFREP bulk: all boolean and enabled variant flags, the flags filter, ETag/304 that changes after a write', async (t) => {
  const { api } = t.context;
  const { ns, base } = await seedShop(api, 'bulk');
  const headers = { 'X-Flipt-Namespace': ns };
  const ask = { context: { targetingKey: 'u1', plan: 'pro' } };
  const all = await api.post('/ofrep/v1/evaluate/flags', ask, headers);
  t.is(all.status, 200, all.text);
  t.deepEqual(all.body.flags.map((f: { key: string }) => f.key), SHOP_FLAGS.filter((key) => key !== 'off'));
  t.like(all.body.flags[0], { key: 'color', value: 'blue', reason: 'TARGETING_MATCH' });

  const filtered = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1', flags: 'off, color' } }, headers);
  t.deepEqual(filtered.body.flags.map((f: { key: string; reason: string }) => [f.key, f.reason]), [['off', 'DISABLED'], ['color', 'DEFAULT']]);
  const missing = await api.post('/ofrep/v1/evaluate/flags', { context: { flags: 'color,nope' } }, headers);
  t.is(missing.status, 404);
  t.is(missing.body.errorCode, 'FLAG_NOT_FOUND');

  const etag = all.headers.get('etag') as string;
  t.truthy(etag);
  const cached = await api.post('/ofrep/v1/evaluate/flags', ask, { ...headers, 'If-None-Match': etag });
  t.is(cached.status, 304);
  t.is(cached.headers.get('etag'), etag);
  t.is(cached.text, '');

  ok(await api.put(`${base}/flags/plain`, { name: 'Plain', enabled: false }));
  const afterWrite = await api.post('/ofrep/v1/evaluate/flags', ask, { ...headers, 'If-None-Match': etag });
  t.is(afterWrite.status, 200);
  t.false(afterWrite.body.flags.some((f: { key: string }) => f.key === 'plain'));
  t.not(afterWrite.headers.get('etag'), etag);
});

test('legacy /api/v1/evaluate and /batch-evaluate answer the legacy shape', async (t) => {
  const { api } = t.context;
  const { ns } = await seedShop(api, 'legacy');
  const single = await api.post(`/api/v1/namespaces/${ns}/evaluate`, { requestId: 'l-1', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  t.is(single.status, 200, single.text);
  t.deepEqual(Object.keys(single.body), ['requestId', 'entityId', 'requestContext', 'match', 'flagKey', 'segmentKey', 'timestamp', 'value', 'requestDurationMillis', 'attachment', 'reason', 'namespaceKey', 'segmentKeys']);
  t.like(single.body, { requestId: 'l-1', entityId: 'u1', requestContext: { plan: 'pro' }, match: true, flagKey: 'color', segmentKey: 'pro-users', value: 'blue', attachment: '{"hex":"#00f"}', reason: 'MATCH_EVALUATION_REASON', namespaceKey: ns, segmentKeys: ['pro-users'] });

  const bodyNamespace = await api.post('/api/v1/evaluate', { namespaceKey: ns, flagKey: 'off', entityId: 'u1' });
  t.like(bodyNamespace.body, { reason: 'FLAG_DISABLED_EVALUATION_REASON', value: 'red', namespaceKey: ns });
  t.regex(bodyNamespace.body.requestId, UUID);

  assertInvalid(t, await api.post('/api/v1/evaluate', { entityId: 'u1' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, await api.post(`/api/v1/namespaces/${ns}/evaluate`, { flagKey: 'color' }), 'invalid field entityId: must not be empty');
  assertInvalid(t, await api.post(`/api/v1/namespaces/${ns}/evaluate`, { flagKey: 'new-ui', entityId: 'u1' }), 'flag type BOOLEAN_FLAG_TYPE invalid');

  const batch = await api.post(`/api/v1/namespaces/${ns}/batch-evaluate`, {
    requestId: 'lb',
    excludeNotFound: true,
    requests: [
      { requestId: 'blanked', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
      { flagKey: 'nope', entityId: 'u1' },
      { flagKey: 'color', entityId: 'u2', namespaceKey: ns },
    ],
  });
  t.is(batch.status, 200, batch.text);
  t.is(batch.body.requestId, 'lb');
  t.deepEqual(batch.body.responses.map((r: { requestId: string; value: string; namespaceKey: string }) => [r.requestId, r.value, r.namespaceKey]), [['', 'blue', ns], ['', 'red', ns]]);
  assertNotFound(t, await api.post(`/api/v1/namespaces/${ns}/batch-evaluate`, { requests: [{ flagKey: 'nope', entityId: 'u1' }] }), `flag "${ns}/nope" not found`);
  assertInvalid(t, await api.post('/api/v1/batch-evaluate', { requests: [{ flagKey: 'color', entityId: 'u1', namespaceKey: ns }] }), 'invalid field namespace_key: must be the same for all requests if specified');
});

test('bad input is a 4xx naming the problem, never a 500, and the server stays healthy', async (t) => {
  const { api } = t.context;
  const { ns } = await seedShop(api, 'bad');
  assertInvalid(t, await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro', seats: 12 } }), 'invalid field context.seats: must be a string');
  assertInvalid(t, await api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'new-ui', context: { beta: true } }), 'invalid field context.beta: must be a string');
  assertInvalid(t, await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: ['color'] }), 'invalid field flagKey: must be a string');
  assertNotFound(t, await api.post('/evaluate/v1/variant', { namespaceKey: ns, entityId: 'u1' }), `flag "${ns}/" not found`);
  assertInvalid(t, await api.post('/api/v1/evaluate', { namespaceKey: ns, entityId: 'u1' }), 'invalid field flagKey: must not be empty');
  assertInvalid(t, await api.post('/evaluate/v1/variant', '{"flagKey": "color",'), /^invalid JSON body: /);

  // A batch has no cap of its own: server.body_limit bounds it.
  const requests = Array.from({ length: 5_000 }, (_, i) => ({ namespaceKey: ns, flagKey: 'new-ui', entityId: `e${i}` }));
  t.is(ok(await api.post('/evaluate/v1/batch', { requests })).responses.length, 5_000);
  const legacy = requests.map(({ entityId }) => ({ flagKey: 'color', entityId, context: { plan: 'pro' } }));
  t.is(ok(await api.post(`/api/v1/namespaces/${ns}/batch-evaluate`, { requests: legacy })).responses.length, 5_000);
  const overLimit = Array.from({ length: 30_000 }, (_, i) => ({ namespaceKey: ns, flagKey: 'new-ui', entityId: `e${i}` }));
  assertError(t, await api.post('/evaluate/v1/batch', { requests: overLimit }), { status: 413, code: 3, message: /body too large/ });
  assertError(t, await api.post(`/api/v1/namespaces/${ns}/batch-evaluate`, { requests: overLimit }), { status: 413, code: 3, message: /body too large/ });

  const huge = JSON.stringify({ namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { blob: 'x'.repeat(5 * 1024 * 1024) } });
  assertError(t, await api.post('/evaluate/v1/variant', huge), { status: 413, code: 3, message: /body too large/ });
  const hugeOfrep = await api.post('/ofrep/v1/evaluate/flags', huge);
  t.is(hugeOfrep.status, 413);

  t.deepEqual(ok(await api.get('/health')), { status: 'SERVING' });
  t.like((await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } })).body, { variantKey: 'blue' });
});

test('routing: grpc-gateway 404 and 501 under the evaluation prefixes; management routes untouched', async (t) => {
  const { api } = t.context;
  assertError(t, await api.post('/evaluate/v1/nope', {}), { status: 404, code: 5, message: 'Not Found' });
  assertError(t, await api.get('/internal/v1/nope'), { status: 404, code: 5, message: 'Not Found' });
  assertError(t, await api.get('/ofrep/v1/nope'), { status: 404, code: 5, message: 'Not Found' });
  assertError(t, await api.get('/evaluate/v1/variant'), { status: 501, code: 12, message: 'Method Not Allowed' });
  assertError(t, await api.get('/api/v1/evaluate'), { status: 501, code: 12, message: 'Method Not Allowed' });
  const trailing = await api.post('/evaluate/v1/boolean/', { flagKey: 'nope', entityId: 'u1' });
  t.is(trailing.status, 404);
  t.is(trailing.body.message, 'flag "default/nope" not found');
  t.like(ok(await api.get('/api/v1/namespaces/default')), { key: 'default' });
});

test('a deleted namespace stops evaluating at once', async (t) => {
  const { api } = t.context;
  const { ns } = await seedShop(api, 'gone');
  t.is((await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'plain', entityId: 'u1' })).status, 200);
  ok(await api.del(`/api/v1/namespaces/${ns}?force=true`));
  assertNotFound(t, await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'plain', entityId: 'u1' }), `flag "${ns}/plain" not found`);
  const snapshot = await api.get(`/internal/v1/evaluation/snapshot/namespace/${ns}`);
  t.deepEqual(snapshot.body, { namespace: { key: ns }, flags: [] });
  // Re-created under the same key, it is empty and then serves its new flags.
  ok(await api.post('/api/v1/namespaces', { key: ns, name: ns }));
  assertNotFound(t, await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'plain', entityId: 'u1' }), `flag "${ns}/plain" not found`);
  ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'plain', name: 'Plain', enabled: true }));
  t.like((await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'plain', entityId: 'u1' })).body, { reason: 'UNKNOWN_EVALUATION_REASON' });
});

test('concurrent evaluations during writes each see a whole snapshot', async (t) => {
  const { api } = t.context;
  const { ns, base, variants } = await seedShop(api, 'concurrent');
  const ask = () => api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  const writes = (async () => {
    for (let i = 0; i < 5; i++) {
      ok(await api.put(`${base}/flags/color`, { name: 'Color', enabled: i % 2 === 0, defaultVariantId: variants.red }));
    }
  })();
  const replies = await Promise.all(Array.from({ length: 100 }, ask));
  await writes;
  for (const reply of replies) {
    t.is(reply.status, 200);
    t.true(
      (reply.body.reason === 'MATCH_EVALUATION_REASON' && reply.body.variantKey === 'blue') ||
        (reply.body.reason === 'FLAG_DISABLED_EVALUATION_REASON' && reply.body.variantKey === 'red'),
      reply.text,
    );
  }
  // The last write left the flag enabled.
  t.like((await ask()).body, { reason: 'MATCH_EVALUATION_REASON' });
});
