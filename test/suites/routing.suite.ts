/** Routing: health, unknown routes, wrong methods, trailing slashes. */
import { assertError, ok } from '../helpers/api.js';
import type { ApiTest } from '../helpers/harness.js';

export function routingSuite(test: ApiTest): void {
  test('routing: GET /health answers 200 SERVING', async (t) => {
    const res = await t.context.api.get('/health');
    t.is(res.status, 200);
    t.deepEqual(res.body, { status: 'SERVING' });
  });

  test('routing: an unknown route under /api/v1 is 404 Not Found', async (t) => {
    const { api } = t.context;
    for (const path of ['/api/v1/nope', '/api/v1/namespaces/default/flags/x/y/z', '/api/v1/namespaces/default/widgets']) {
      assertError(t, await api.get(path), { status: 404, code: 5, message: 'Not Found' }, path);
    }
  });

  test('routing: a wrong method on a known route is 501 Method Not Allowed', async (t) => {
    const { api } = t.context;
    const cases: Array<[string, string]> = [
      ['PATCH', '/api/v1/namespaces'],
      ['DELETE', '/api/v1/namespaces'],
      ['POST', '/api/v1/namespaces/default'],
      ['PATCH', '/api/v1/namespaces/default/flags'],
      ['DELETE', '/api/v1/flags'],
    ];
    for (const [method, path] of cases) {
      assertError(t, await api.request(method, path, method === 'DELETE' ? undefined : {}), { status: 501, code: 12, message: 'Method Not Allowed' }, `${method} ${path}`);
    }
  });

  test('routing: a trailing slash is ignored', async (t) => {
    const { api } = t.context;
    t.is(ok(await api.get('/api/v1/namespaces/default/')).key, 'default');
    t.true(Array.isArray(ok(await api.get('/api/v1/namespaces/')).namespaces));
  });
}
