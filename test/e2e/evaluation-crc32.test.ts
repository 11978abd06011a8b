/**
 * `evaluation.hash: crc32` reproduces Flipt's bucketing: a server started with
 * ENSIGN_EVALUATION_HASH=crc32 answers Flipt's own test vectors.
 */
import anyTest from 'ava';
import { createNamespace, ok } from '../helpers/api.js';
import { type EvalTest, useEvaluationServer } from '../helpers/evaluation-harness.js';

const test = anyTest as EvalTest;
useEvaluationServer(test, 'sqlite', { ENSIGN_EVALUATION_HASH: 'crc32' });

test('variant: flag foo split 50/50 boz/booz puts entity 1 in boz and entity 2 in booz', async (t) => {
  const { api } = t.context;
  const ns = await createNamespace(api, 'crc32');
  const base = `/api/v1/namespaces/${ns}`;
  ok(await api.post(`${base}/flags`, { key: 'foo', name: 'Foo', enabled: true }));
  const boz = ok(await api.post(`${base}/flags/foo/variants`, { key: 'boz' })).id;
  const booz = ok(await api.post(`${base}/flags/foo/variants`, { key: 'booz' })).id;
  ok(await api.post(`${base}/segments`, { key: 'everyone', name: 'Everyone' }));
  const rule = ok(await api.post(`${base}/flags/foo/rules`, { segmentKey: 'everyone', rank: 1 })).id;
  ok(await api.post(`${base}/flags/foo/rules/${rule}/distributions`, { variantId: boz, rollout: 50 }));
  ok(await api.post(`${base}/flags/foo/rules/${rule}/distributions`, { variantId: booz, rollout: 50 }));

  const ask = (entityId: string) => api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'foo', entityId });
  t.like((await ask('1')).body, { match: true, variantKey: 'boz', reason: 'MATCH_EVALUATION_REASON' });
  t.like((await ask('2')).body, { match: true, variantKey: 'booz', reason: 'MATCH_EVALUATION_REASON' });
  // The same buckets through the legacy route, the batch and OFREP.
  t.like((await api.post(`/api/v1/namespaces/${ns}/evaluate`, { flagKey: 'foo', entityId: '1' })).body, { value: 'boz' });
  const batch = await api.post('/evaluate/v1/batch', { requests: ['1', '2'].map((entityId) => ({ namespaceKey: ns, flagKey: 'foo', entityId })) });
  t.deepEqual(batch.body.responses.map((r: { variantResponse: { variantKey: string } }) => r.variantResponse.variantKey), ['boz', 'booz']);
  t.like((await api.post('/ofrep/v1/evaluate/flags/foo', { context: { targetingKey: '2' } }, { 'X-Flipt-Namespace': ns })).body, { value: 'booz' });
});

test('boolean: test-flag for test-entity is in a 70% threshold and outside a 5% one', async (t) => {
  const { api } = t.context;
  const ns = await createNamespace(api, 'crc32');
  const base = `/api/v1/namespaces/${ns}`;
  ok(await api.post(`${base}/flags`, { key: 'test-flag', name: 'Test', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  const rollout = ok(await api.post(`${base}/flags/test-flag/rollouts`, { rank: 1, threshold: { percentage: 70, value: true } }));

  const ask = () => api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'test-flag', entityId: 'test-entity' });
  t.like((await ask()).body, { enabled: true, reason: 'MATCH_EVALUATION_REASON' });

  ok(await api.put(`${base}/flags/test-flag/rollouts/${rollout.id}`, { rank: 1, threshold: { percentage: 5, value: true } }));
  t.like((await ask()).body, { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
});
