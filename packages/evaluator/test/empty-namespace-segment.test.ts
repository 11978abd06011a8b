/**
 * COMPAT(flipt): Flipt's Go SDK posts to `/api/v1/namespaces//evaluate` and `…//batch-evaluate`;
 * Flipt's gateway binds the empty segment as an empty namespace, which is `default`.
 */
import test from 'ava';
import { digestOf, type DigestEntry } from '@ensign/auth';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { assertError, startServer } from './helpers/server.js';

const variant = { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } };

test('evaluate with an empty namespace segment answers from default, echoing the empty namespace', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/api/v1/namespaces//evaluate', variant);
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { flagKey: 'color', value: 'blue', match: true, namespaceKey: '' });
  // The path wins over the body, as for any other namespace in the path.
  const overBody = await api.post('/api/v1/namespaces//evaluate', { ...variant, namespaceKey: 'other' });
  t.like(overBody.body, { value: 'blue', namespaceKey: '' });
  assertError(t, await api.post('/api/v1/namespaces//evaluate', { flagKey: 'nope', entityId: 'u1' }), 404, 5, 'flag "default/nope" not found');
});

test('batch-evaluate with an empty namespace segment answers from default', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/api/v1/namespaces//batch-evaluate', { requests: [variant, { flagKey: 'color', entityId: 'u2' }] });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(
    reply.body.responses.map((r: { value: string }) => r.value),
    ['blue', 'red'],
  );
});

test('the empty segment is a namespace like any other to the router: wrong method 501, other paths not taken', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.get('/api/v1/namespaces//evaluate'), 501, 12, 'Method Not Allowed');
  // Management paths and the evaluator's own namespaced routes are not legacy evaluation.
  t.is((await api.get('/api/v1/namespaces//flags')).status, 418);
  assertError(t, await api.post('/evaluate/v1/namespaces//variant', variant), 404, 5, 'Not Found');
  t.is((await api.post('/api/v1/namespaces//evaluate/extra', variant)).status, 418);
});

test('a token scoped to default may use the empty segment; one scoped elsewhere may not', async (t) => {
  const entries: Record<string, DigestEntry> = { home: { method: 'METHOD_TOKEN', namespace: 'default' }, away: { method: 'METHOD_TOKEN', namespace: 'other' } };
  const set = new Map(Object.entries(entries).map(([token, entry]) => [digestOf(token), entry]));
  const api = await startServer(t, { source: readySource(), auth: { required: true, digests: () => set, exclude: { management: false, evaluation: false, ofrep: false } } });
  const home = await api.post('/api/v1/namespaces//evaluate', variant, { Authorization: 'Bearer home' });
  t.is(home.status, 200, home.text);
  // COMPAT(flipt): a namespace outside the token's scope is refused as unauthenticated.
  assertError(t, await api.post('/api/v1/namespaces//batch-evaluate', { requests: [variant] }, { Authorization: 'Bearer away' }), 401, 16, 'request was not authenticated');
});
