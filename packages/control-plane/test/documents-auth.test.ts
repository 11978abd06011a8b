/** Export and import behind authentication: a namespace-scoped token reaches its own namespace only. */
import test from 'ava';
import { issueToken } from '@ensign/auth';
import { type AuthHarness, bearer, startAuthHarness, UNAUTHENTICATED } from './auth-harness.js';

let h: AuthHarness;
let admin: Record<string, string>;
let scoped: Record<string, string>;

test.before(async () => {
  h = await startAuthHarness();
  admin = bearer((await issueToken(h.store.authentications, { name: 'admin', description: '' })).clientToken);
  scoped = bearer((await issueToken(h.store.authentications, { name: 'team', description: '', namespaceKey: 'team' })).clientToken);
  for (const key of ['team', 'rival']) await h.call('POST', '/api/v1/namespaces', { headers: admin, json: { key, name: key } });
});
test.after.always(() => h?.close());

const yaml = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/yaml' });

async function importInto(ns: string, headers: Record<string, string>, query = '') {
  const res = await fetch(`${h.base}/api/v1/namespaces/${ns}/import${query}`, { method: 'POST', headers: yaml(headers), body: 'flags:\n- key: imported\n  name: Imported\n' });
  return { status: res.status, json: (await res.json()) as unknown };
}

test('without a credential both routes answer 401', async (t) => {
  t.deepEqual((await h.call('GET', '/api/v1/namespaces/team/export')).json, UNAUTHENTICATED);
  t.deepEqual((await importInto('team', {})).json, UNAUTHENTICATED);
});

test('a scoped token exports and imports its own namespace', async (t) => {
  const exported = await h.call('GET', '/api/v1/namespaces/team/export', { headers: scoped });
  t.is(exported.status, 200, exported.text);
  t.is((await importInto('team', scoped, '?dryRun=true')).status, 200);
  t.is((await importInto('team', scoped)).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/team/flags/imported', { headers: scoped })).status, 200);
});

test('a scoped token reaches no other namespace, the empty segment (default) included', async (t) => {
  for (const ns of ['rival', 'default', '']) {
    t.deepEqual((await h.call('GET', `/api/v1/namespaces/${ns}/export`, { headers: scoped })).json, UNAUTHENTICATED, `export ${ns}`);
    t.deepEqual((await importInto(ns, scoped)).json, UNAUTHENTICATED, `import ${ns}`);
  }
  t.is((await h.call('GET', '/api/v1/namespaces/rival/flags/imported', { headers: admin })).status, 404, 'nothing was written');
  t.is((await h.call('GET', '/api/v1/namespaces/rival/export', { headers: admin })).status, 200, 'an unscoped token reaches every namespace');
});
