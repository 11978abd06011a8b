/** `ui.enabled: false`: an API-only server answers no page at `/`, and its APIs are unchanged. */
import { jsonClient, startEnsign } from '@ensign/testkit';
import test from 'ava';

test('with ui.enabled false, / and the client routes are 404 while the APIs answer', async (t) => {
  const server = await startEnsign({ env: { ENSIGN_UI_ENABLED: 'false', ENSIGN_LOG_LEVEL: 'warn' } });
  t.teardown(() => server.stop());
  for (const path of ['/', '/namespaces/default/flags']) t.is((await fetch(`${server.baseUrl}${path}`)).status, 404, path);
  const api = jsonClient(server.baseUrl);
  t.deepEqual((await api.get('/health')).body, { status: 'SERVING' });
  t.is((await api.get('/api/v1/namespaces/default')).status, 200);
});
