/**
 * Faults on the write path say what happened: with the database unreachable a write answers 503
 * naming the database as unavailable, the log says why, and writes work again once it is back.
 */
import test from 'ava';
import { createTestDatabase, freePort, jsonClient, startEnsign, TcpProxy } from '@ensign/testkit';

test('a write while PostgreSQL is unreachable is a 503 with a logged cause, and the next write after it is back succeeds', async (t) => {
  const db = await createTestDatabase('postgres');
  const proxy = new TcpProxy(5432, await freePort());
  await proxy.open();
  const url = db.url.replace('127.0.0.1:5432', `127.0.0.1:${proxy.port}`);
  const server = await startEnsign({ env: { ENSIGN_DB_URL: url, ENSIGN_DB_CONN_MAX_LIFETIME: '0' } });
  t.teardown(async () => {
    await server.stop();
    await proxy.close();
    await db.drop();
  });
  const api = jsonClient(server.baseUrl);
  t.is((await api.post('/api/v1/flags', { key: 'before', name: 'Before' })).status, 200);

  await proxy.close();
  const refused = await api.post('/api/v1/flags', { key: 'during', name: 'During' });
  t.is(refused.status, 503, refused.text);
  t.deepEqual(refused.body, { code: 14, message: 'database unavailable', details: [] });
  const failures = () =>
    server
      .logs()
      .split('\n')
      .filter((line) => line.includes('"request failed"'))
      .map((line) => JSON.parse(line) as { err?: { message?: string; stack?: string; cause?: unknown } });
  // The process's output arrives a little after its answer.
  for (let i = 0; i < 40 && failures().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const logged = failures();
  t.true(logged.length > 0, 'the failure is logged');
  t.regex(JSON.stringify(logged.at(-1)?.err), /ECONNREFUSED|Connection terminated|connect/i, 'with the driver error as its cause');

  await proxy.open();
  let after = await api.post('/api/v1/flags', { key: 'after', name: 'After' });
  for (let i = 0; i < 50 && after.status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await api.post('/api/v1/flags', { key: 'after', name: 'After' });
  }
  t.is(after.status, 200, after.text);
  const evaluated = await api.post('/evaluate/v1/boolean', { flagKey: 'after', entityId: 'e' });
  t.is(evaluated.status, 400, 'the new flag is held for evaluation (a variant flag refuses a boolean evaluation)');
});
