/** Which requests the handler takes, grpc-gateway's 404/501, trailing slashes, pretty output, readiness. */
import test from 'ava';
import { defaultDocument, hold, readySource } from '@ensign/testkit/snapshot-fixtures';
import { createHealthCheck } from '../src/health.js';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { assertError, startServer } from './helpers/server.js';

test('paths outside the evaluator\'s are handed on untouched', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const path of ['/health', '/api/v1/namespaces', '/', '/evaluate', '/evaluatex/v1/variant', '/ofrepx', '/internal/v2/x', '/internal/v1/analytics/namespaces/default/flags/f']) {
    const reply = await api.get(path);
    t.is(reply.status, 418, path);
  }
});

test('unknown paths under the evaluator\'s prefixes are grpc-gateway 404s', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const path of ['/evaluate/v1', '/evaluate/v1/nope', '/evaluate/v1/namespaces/default/batch', '/internal/v1/evaluation/snapshot', '/internal/v1/evaluation/other', '/ofrep', '/ofrep/v1/evaluate']) {
    assertError(t, await api.post(path, {}), 404, 5, 'Not Found');
  }
});

test('a wrong method on a known path is a 501 Method Not Allowed', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const [method, path] of [
    ['GET', '/evaluate/v1/variant'],
    ['PUT', '/evaluate/v1/boolean'],
    ['DELETE', '/evaluate/v1/batch'],
    ['GET', '/evaluate/v1/namespaces/default/variant'],
  ] as const) {
    assertError(t, await api.request(method, path), 501, 12, 'Method Not Allowed');
  }
});

test('trailing slashes are stripped; query strings ignored', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant//?x=1', { flagKey: 'color', entityId: 'u1' });
  t.is(reply.status, 200, reply.text);
  t.is((await api.post('/evaluate/v1/namespaces/other/variant/', { flagKey: 'color', entityId: 'u1' })).body.variantKey, 'green');
});

test('path parameters are percent-decoded', async (t) => {
  const source = new InProcessSnapshotSource();
  const doc = defaultDocument();
  doc.namespace.key = 'a,b';
  hold(source, doc);
  source.markReady();
  const api = await startServer(t, { source });
  const reply = await api.post('/evaluate/v1/namespaces/a%2Cb/boolean', { flagKey: 'test-flag', entityId: 'test-entity' });
  t.is(reply.status, 200, reply.text);
  t.true(reply.body.enabled);
});

test('?pretty and Accept: application/json+pretty indent the output', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const pretty = await api.post('/evaluate/v1/boolean?pretty', { flagKey: 'test-flag', entityId: 'test-entity' });
  t.true(pretty.text.startsWith('{\n  "enabled": true'));
  const accept = await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'test-entity' }, { Accept: 'application/json+pretty' });
  t.true(accept.text.includes('\n  "reason"'));
  const compact = await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'test-entity' });
  t.false(compact.text.includes('\n'));
});

test('before the snapshots are loaded every evaluation route is a 503', async (t) => {
  const source = new InProcessSnapshotSource();
  hold(source, defaultDocument());
  const api = await startServer(t, { source });
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' }), 503, 14, 'snapshots are not loaded yet');
  assertError(t, await api.post('/api/v1/evaluate', { flagKey: 'color', entityId: 'u1' }), 503, 14, 'snapshots are not loaded yet');
  assertError(t, await api.get('/internal/v1/evaluation/snapshot/namespace/default'), 503, 14, 'snapshots are not loaded yet');
  const ofrep = await api.post('/ofrep/v1/evaluate/flags', {});
  t.is(ofrep.status, 503);
  t.deepEqual(ofrep.body, { errorCode: 'GENERAL', errorDetails: 'snapshots are not loaded yet' });
  const check = createHealthCheck(source);
  await t.throwsAsync(check.ping(), { message: 'snapshots are not loaded yet' });

  source.markReady();
  t.is((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).status, 200);
  await t.notThrowsAsync(check.ping());
});

test('a snapshot swapped in is answered by the very next request', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'red' });
  const doc = defaultDocument();
  doc.flags[0]!.defaultVariant = { id: 'v-pink', key: 'pink', attachment: '' };
  hold(source, doc, 2);
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'pink' });
  source.remove('default', 3);
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "default/color" not found');
});
