/**
 * A JSON body nested deeper than core's bound is a 400 on every route that reads one, before a
 * route can store it (a change request's proposed body, a flag's metadata) and fail to write it back.
 */
import test from 'ava';
import { MAX_OBJECT_DEPTH } from '@ensign/core';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness({ changeRequests: true });
  await h.call('POST', '/api/v1/namespaces', { body: JSON.stringify({ key: 'deep', name: 'Deep' }), headers: { 'content-type': 'application/json' } });
});
test.after.always(() => h?.close());

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

test('a change request proposing a body nested 50,000 deep is refused, not failed on', async (t) => {
  const body = `{"title":"t","changes":[{"method":"POST","path":"/api/v1/namespaces/deep/flags","body":{"key":"k","name":"n","x":${nested(50_000)}}}]}`;
  const res = await h.call('POST', '/api/v1/namespaces/deep/change-requests', { body, headers: { 'content-type': 'application/json' } });
  t.deepEqual(res.json, invalidBody(`invalid JSON body: must not nest deeper than ${MAX_OBJECT_DEPTH} levels`));
});

test('a flag\'s metadata nested within the bound is stored and read back', async (t) => {
  const body = `{"key":"nested","name":"n","metadata":${nested(MAX_OBJECT_DEPTH - 2)}}`;
  const res = await h.call('POST', '/api/v1/namespaces/deep/flags', { body, headers: { 'content-type': 'application/json' } });
  t.is(res.status, 200, res.text.slice(0, 300));
  t.is((await h.call('GET', '/api/v1/namespaces/deep/flags/nested')).status, 200);
});
