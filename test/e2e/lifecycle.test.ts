/** The `ensign` process as an operator sees it: start-up, restarts, signals, migrate, bad configuration. */
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createTestDatabase, freePort, jsonClient, runEnsign, scratchDir, startEnsign } from '@ensign/testkit';
import test from 'ava';
import { ok } from '../helpers/api.js';

/** The JSON log lines a process wrote (other lines are ignored). */
const logLines = (output: string): Array<Record<string, any>> =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

const waitFor = async (condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

test('a fresh start creates the SQLite file at the configured path, the default namespace, and logs where it listens', async (t) => {
  const cwd = scratchDir();
  const server = await startEnsign({ cwd, config: { db: { url: 'file:./state/flags.db' }, log: { level: 'info' } } });
  t.teardown(() => server.stop());
  t.true(existsSync(join(cwd, 'state/flags.db')));
  const api = jsonClient(server.baseUrl);
  t.like(ok(await api.get('/api/v1/namespaces/default')), { key: 'default', protected: true });

  const listening = logLines(server.logs()).filter((line) => line.msg === 'listening');
  t.is(listening.length, 1);
  t.is(listening[0]?.address, server.baseUrl);
  t.is(listening[0]?.level, 30);
  t.is(await server.stop(), 0);
});

test('data survives a graceful restart and a kill -9', async (t) => {
  const cwd = scratchDir();
  const first = await startEnsign({ cwd });
  t.teardown(() => first.stop());
  let api = jsonClient(first.baseUrl);
  ok(await api.post('/api/v1/namespaces', { key: 'kept', name: 'Kept' }));
  ok(await api.post('/api/v1/namespaces/kept/flags', { key: 'f', name: 'F', enabled: true }));
  t.is(await first.stop(), 0);

  const second = await startEnsign({ cwd });
  t.teardown(() => second.stop());
  api = jsonClient(second.baseUrl);
  t.like(ok(await api.get('/api/v1/namespaces/kept/flags/f')), { key: 'f', enabled: true });
  ok(await api.post('/api/v1/namespaces/kept/segments', { key: 's', name: 'S' }));
  await second.kill9();

  const third = await startEnsign({ cwd });
  t.teardown(() => third.stop());
  api = jsonClient(third.baseUrl);
  t.like(ok(await api.get('/api/v1/namespaces/kept/segments/s')), { key: 's' });
  t.like(ok(await api.get('/api/v1/namespaces/kept/flags/f')), { key: 'f' });
  t.is(await third.stop(), 0);
});

test('SIGTERM lets an in-flight request finish, refuses new connections, and exits 0', async (t) => {
  const cwd = scratchDir();
  const server = await startEnsign({ cwd });
  t.teardown(() => server.stop());
  const body = JSON.stringify({ key: 'inflight', name: 'Sent during shutdown' });

  // `Expect: 100-continue` makes the server confirm it has the request before the body is sent.
  const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/api/v1/namespaces',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.on('continue', async () => {
      try {
        process.kill(server.pid, 'SIGTERM');
        await waitFor(() => server.logs().includes('"msg":"shutting down"'), 'the shutdown log line');
        const refused = await fetch(`${server.baseUrl}/health`).then(
          () => false,
          () => true,
        );
        t.true(refused, 'a new connection is refused while shutting down');
        req.end(body);
      } catch (err) {
        reject(err);
      }
    });
  });

  const res = await response;
  t.is(res.status, 200, res.body);
  t.is(JSON.parse(res.body).key, 'inflight');
  t.is(res.connection, 'close');
  t.is(await server.exited, 0);
  t.true(logLines(server.logs()).some((line) => line.msg === 'stopped'));

  const again = await startEnsign({ cwd });
  t.teardown(() => again.stop());
  t.like(ok(await jsonClient(again.baseUrl).get('/api/v1/namespaces/inflight')), { name: 'Sent during shutdown' });
  t.is(await again.stop('SIGINT'), 0, 'SIGINT stops gracefully too');
});

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`ensign migrate creates the schema of an empty ${dialect} database; server then starts on it`, async (t) => {
    const database = await createTestDatabase(dialect);
    t.teardown(() => database.drop());
    const env = { ENSIGN_DB_URL: database.url };

    const first = await runEnsign(['migrate'], { env });
    t.is(first.code, 0, first.stderr + first.stdout);
    const applied = first.stdout.trim().split('\n');
    t.true(applied.length >= 1);
    for (const line of applied) t.regex(line, /^applied \S+$/);

    const second = await runEnsign(['migrate'], { env });
    t.is(second.code, 0, second.stderr + second.stdout);
    t.is(second.stdout, 'database schema is up to date\n');

    const server = await startEnsign({ env });
    t.teardown(() => server.stop());
    t.true(logLines(server.logs()).some((line) => line.msg === 'database schema is up to date'));
    t.like(ok(await jsonClient(server.baseUrl).get('/api/v1/namespaces/default')), { protected: true });
    t.is(await server.stop(), 0);
  });
}

test('an invalid configuration value exits 2 with one line on stderr naming the key', async (t) => {
  const file = join(scratchDir(), 'ensign.yml');
  writeFileSync(file, 'server:\n  http_port: abc\n');
  const result = await runEnsign(['server', '--config', file]);
  t.is(result.code, 2);
  t.is(result.stderr, 'ensign: invalid configuration: server.http_port: must be an integer between 1 and 65535 (got "abc")\n');
  t.is(result.stdout, '');
});

test('unknown configuration keys are logged once each as warnings and do not stop the server', async (t) => {
  const server = await startEnsign({ config: { meta: { check_for_updates: false }, server: { https_port: 8443 }, log: { level: 'info' } } });
  t.teardown(() => server.stop());
  const warnings = logLines(server.logs()).filter((line) => line.level === 40);
  t.deepEqual(
    warnings.map((line) => line.msg.replace(/ in .*ensign\.yml/, '')),
    ['unknown configuration key "meta" ignored', 'unknown configuration key "server.https_port" ignored'],
  );
});

test('a port already in use stops start-up with one error line and exit code 1', async (t) => {
  const port = await freePort();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  // A start on a loaded CI machine can take tens of seconds before the port is tried.
  const result = await runEnsign(['server'], { env: { ENSIGN_SERVER_HTTP_PORT: String(port) }, timeoutMs: 90_000 });
  t.is(result.code, 1);
  const errors = logLines(result.stdout).filter((line) => line.level >= 50);
  t.is(errors.length, 1, result.stdout);
  t.regex(errors[0]?.msg ?? '', /EADDRINUSE/);
});

test('an unreachable database stops start-up with one error line and exit code 1', async (t) => {
  const port = await freePort();
  const result = await runEnsign(['server'], { env: { ENSIGN_DB_URL: `postgres://postgres@127.0.0.1:${port}/nothing` }, timeoutMs: 90_000 });
  t.is(result.code, 1);
  const errors = logLines(result.stdout).filter((line) => line.level >= 50);
  t.is(errors.length, 1, result.stdout);
  t.regex(errors[0]?.msg ?? '', /ECONNREFUSED|connect/);
});

test('force=true deletes even the protected default namespace, with its flags', async (t) => {
  const server = await startEnsign();
  t.teardown(() => server.stop());
  const api = jsonClient(server.baseUrl);
  ok(await api.post('/api/v1/flags', { key: 'doomed', name: 'Doomed' }));
  t.deepEqual(ok(await api.del('/api/v1/namespaces/default?force=true')), {});
  t.is((await api.get('/api/v1/namespaces/default')).status, 404);
  t.false(ok(await api.get('/api/v1/namespaces')).namespaces.some((n: { key: string }) => n.key === 'default'));
});
