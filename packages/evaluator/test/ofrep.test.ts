/** OFREP: configuration, single and bulk evaluation, the flag filter, ETag/304 and OFREP's error bodies. */
import test from 'ava';
import { defaultDocument, hold, readySource } from '@ensign/testkit/snapshot-fixtures';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { startServer } from './helpers/server.js';

test('configuration advertises polling from the cache settings', async (t) => {
  const off = await startServer(t, { source: readySource() });
  const reply = await off.get('/ofrep/v1/configuration');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, {
    name: 'flipt',
    capabilities: {
      cacheInvalidation: { polling: { enabled: false, minPollingIntervalMs: 0 } },
      flagEvaluation: { supportedTypes: ['string', 'boolean'] },
    },
  });
  const on = await startServer(t, { source: readySource(), ofrep: { cacheEnabled: true, cacheTtlMs: 60_000 } });
  t.deepEqual((await on.get('/ofrep/v1/configuration')).body.capabilities.cacheInvalidation, { polling: { enabled: true, minPollingIntervalMs: 60_000 } });
});

test('single: a variant flag answers its variant key as value, with segments and attachment in metadata', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1', plan: 'pro' } });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body, { key: 'color', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'pro-users', attachment: '{"hex":"#00f"}' }, value: 'blue' });
  const fallback = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } });
  t.deepEqual(fallback.body, { key: 'color', reason: 'DEFAULT', variant: 'red', metadata: { attachment: '{"hex":"#f00"}' }, value: 'red' });
  t.deepEqual((await api.post('/ofrep/v1/evaluate/flags/off', {})).body, { key: 'off', reason: 'DISABLED', variant: 'red', metadata: {}, value: 'red' });
  t.deepEqual((await api.post('/ofrep/v1/evaluate/flags/plain', {})).body, { key: 'plain', reason: 'UNKNOWN', variant: '', metadata: {}, value: '' });
});

test('single: a boolean flag answers a JSON boolean, and targetingKey is the entity', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags/test-flag', { context: { targetingKey: 'test-entity' } });
  t.deepEqual(reply.body, { key: 'test-flag', reason: 'TARGETING_MATCH', variant: 'true', metadata: {}, value: true });
  const off = await api.post('/ofrep/v1/evaluate/flags/new-ui', { context: { targetingKey: 'c' } });
  t.deepEqual(off.body, { key: 'new-ui', reason: 'DEFAULT', variant: 'false', metadata: {}, value: false });
  t.like((await api.post('/ofrep/v1/evaluate/flags/foo', { context: { targetingKey: '2' } })).body, { value: 'booz' });
});

test('the namespace comes from X-Flipt-Namespace', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1' } }, { 'X-Flipt-Namespace': 'other' });
  t.like(reply.body, { value: 'green', reason: 'TARGETING_MATCH' });
});

test('OFREP errors: not found 404, bad context 400, each in OFREP\'s own body', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const missing = await api.post('/ofrep/v1/evaluate/flags/nope', { context: { targetingKey: 'u1' } });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found nope' });
  const ghost = await api.post('/ofrep/v1/evaluate/flags/color', {}, { 'X-Flipt-Namespace': 'ghost' });
  t.deepEqual(ghost.body, { key: 'color', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found color' });

  const badContext = await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1', age: 42 } });
  t.is(badContext.status, 400);
  t.deepEqual(badContext.body, { errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid field context.age: must be a string' });
  const badJson = await api.post('/ofrep/v1/evaluate/flags', '{oops');
  t.is(badJson.status, 400);
  t.is(badJson.body.errorCode, 'INVALID_CONTEXT');
  const huge = await api.post('/ofrep/v1/evaluate/flags', JSON.stringify({ context: { x: 'y'.repeat(2 * 1024 * 1024) } }));
  t.is(huge.status, 413);
  t.is(huge.body.errorCode, 'GENERAL');
});

test('bulk: every boolean flag and every enabled variant flag, in flag order', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'test-entity', plan: 'pro' } });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(
    reply.body.flags.map((f: { key: string }) => f.key),
    ['color', 'foo', 'plain', 'new-ui', 'test-flag', 'five', 'ids'],
  );
  t.deepEqual(reply.body.flags[0], { key: 'color', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'pro-users', attachment: '{"hex":"#00f"}' }, value: 'blue' });
  t.like(reply.body.flags[4], { key: 'test-flag', value: true, variant: 'true' });
  t.regex(reply.headers.get('etag') ?? '', /^[0-9a-f]{40}$/);
});

test('bulk: context.flags filters (comma-separated, trimmed) and a missing one fails the request', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1', flags: ' off , test-flag,' } });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body.flags.map((f: { key: string }) => f.key), ['off', 'test-flag']);
  t.like(reply.body.flags[0], { reason: 'DISABLED' });
  const missing = await api.post('/ofrep/v1/evaluate/flags', { context: { flags: 'color,nope' } });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found nope' });
});

test('bulk: an unknown namespace has no flags', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/ofrep/v1/evaluate/flags', {}, { 'X-Flipt-Namespace': 'ghost' });
  t.is(reply.status, 200);
  // Its change events are still named: a provider learns when the namespace is created.
  t.deepEqual(reply.body, { flags: [], eventStreams: [{ type: 'sse', endpoint: { requestUri: '/ofrep/v1/_stream/default/ghost/events' } }] });
  t.is(reply.headers.get('etag'), null);
});

test('bulk ETag: same namespace state and request → 304; a change of data, filter or context → 200', async (t) => {
  const source = new InProcessSnapshotSource();
  hold(source, defaultDocument(), 1);
  source.markReady();
  const api = await startServer(t, { source });
  const ask = { context: { targetingKey: 'u1', flags: 'color,test-flag' } };
  const first = await api.post('/ofrep/v1/evaluate/flags', ask);
  const etag = first.headers.get('etag') as string;
  const again = await api.post('/ofrep/v1/evaluate/flags', ask, { 'If-None-Match': etag });
  t.is(again.status, 304);
  t.is(again.text, '');
  t.is(again.headers.get('etag'), etag);

  const otherFilter = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1', flags: 'color' } }, { 'If-None-Match': etag });
  t.is(otherFilter.status, 200);
  t.not(otherFilter.headers.get('etag'), etag);
  const otherUser = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u2', flags: 'color,test-flag' } }, { 'If-None-Match': etag });
  t.is(otherUser.status, 200);

  const changed = defaultDocument();
  changed.flags[0]!.enabled = false;
  hold(source, changed, 2);
  const afterWrite = await api.post('/ofrep/v1/evaluate/flags', ask, { 'If-None-Match': etag });
  t.is(afterWrite.status, 200);
  t.like(afterWrite.body.flags[0], { key: 'color', reason: 'DISABLED' });
  t.not(afterWrite.headers.get('etag'), etag);
});

test('without targetingKey each call is a random entity', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) seen.add((await api.post('/ofrep/v1/evaluate/flags/foo', {})).body.value);
  t.deepEqual([...seen].sort(), ['booz', 'boz']);
});

test('unknown OFREP paths are 404, wrong methods 501', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const unknown = await api.get('/ofrep/v2/whatever');
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { code: 5, message: 'Not Found', details: [] });
  t.is((await api.get('/ofrep/v1/evaluate/flags/color')).status, 501);
  t.is((await api.post('/ofrep/v1/configuration', {})).status, 501);
});
