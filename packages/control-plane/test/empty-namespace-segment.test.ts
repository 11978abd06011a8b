/**
 * COMPAT(flipt): an empty `{ns}` segment (`/api/v1/namespaces//flags`, sent by Flipt's Go SDK) is
 * the `default` namespace, for the routes and for the scope of a namespaced token.
 */
import test from 'ava';
import { issueToken } from '@ensign/auth';
import { type AuthHarness, bearer, startAuthHarness, UNAUTHENTICATED } from './auth-harness.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'other', name: 'Other' } });
  await h.call('POST', '/api/v1/namespaces/other/flags', { json: { key: 'elsewhere', name: 'Elsewhere' } });
});
test.after.always(() => h?.close());

test('a POST with an empty namespace segment creates in default', async (t) => {
  const created = await h.call('POST', '/api/v1/namespaces//flags', { json: { key: 'from-sdk', name: 'From SDK', namespaceKey: 'other' } });
  t.is(created.status, 200, created.text);
  t.like(created.json, { key: 'from-sdk', namespaceKey: 'default' });
  t.is((await h.call('GET', '/api/v1/namespaces/default/flags/from-sdk')).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/other/flags/from-sdk')).status, 404);
});

test('a GET with an empty namespace segment reads default', async (t) => {
  await h.call('POST', '/api/v1/namespaces/default/flags', { json: { key: 'listed', name: 'Listed' } });
  const list = await h.call('GET', '/api/v1/namespaces//flags');
  t.is(list.status, 200, list.text);
  const keys: string[] = list.json.flags.map((f: { key: string }) => f.key);
  t.true(keys.includes('listed'));
  t.false(keys.includes('elsewhere'));
  t.like((await h.call('GET', '/api/v1/namespaces//flags/listed')).json, { key: 'listed', namespaceKey: 'default' });
  t.deepEqual((await h.call('GET', '/api/v1/namespaces//flags/elsewhere')).json, { code: 5, message: 'flag "default/elsewhere" not found', details: [] });
});

test('an empty segment names default and nothing more: unknown paths stay 404', async (t) => {
  t.deepEqual((await h.call('GET', '/api/v1/namespaces//nope')).json, { code: 5, message: 'Not Found', details: [] });
  t.is((await h.call('GET', '/api/v1/namespaces///flags')).status, 404);
});

let a: AuthHarness;
test.before(async () => {
  a = await startAuthHarness();
});
test.after.always(() => a?.close());

test('a token scoped to default may use the empty segment; one scoped elsewhere may not', async (t) => {
  const home = bearer((await issueToken(a.store.authentications, { name: 'home', description: '', namespaceKey: 'default' })).clientToken);
  const away = bearer((await issueToken(a.store.authentications, { name: 'away', description: '', namespaceKey: 'other' })).clientToken);
  t.is((await a.call('POST', '/api/v1/namespaces//flags', { headers: home, json: { key: 'scoped', name: 'Scoped' } })).status, 200);
  t.is((await a.call('GET', '/api/v1/namespaces//flags/scoped', { headers: home })).status, 200);
  const refused = await a.call('GET', '/api/v1/namespaces//flags', { headers: away });
  t.is(refused.status, 401);
  t.deepEqual(refused.json, UNAUTHENTICATED);
});
