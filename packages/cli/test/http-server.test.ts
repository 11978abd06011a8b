import test from 'ava';
import { request } from 'node:http';
import { listen } from '../src/http-server.js';

interface Reply {
  status: number;
  body: string;
  connection: string | undefined;
}

/** Sends a request whose response the handler controls; resolves the reply or rejects on a dropped socket. */
const send = (address: string, path: string): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request(`${address}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

test('shutdown waits for an in-flight request, which is answered with Connection: close', async (t) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
  const server = await listen(
    (_req, res) => {
      arrived();
      void released.then(() => res.end('done'));
    },
    { host: '127.0.0.1', port: 0 },
  );

  const reply = send(server.address, '/slow');
  await inHandler;
  const stopped = server.shutdown(30_000);
  await t.throwsAsync(send(server.address, '/new'), undefined, 'no new connections once shutting down');
  release();
  t.deepEqual(await reply, { status: 200, body: 'done', connection: 'close' });
  t.true(await stopped, 'finished within the timeout');
});

test('shutdown closes connections that outlive the timeout and says so', async (t) => {
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
  const server = await listen(
    () => {
      arrived();
    },
    { host: '127.0.0.1', port: 0 },
  );
  const reply = send(server.address, '/never');
  await inHandler;
  t.false(await server.shutdown(50));
  await t.throwsAsync(reply);
});

test('listening on a port in use rejects with EADDRINUSE', async (t) => {
  const first = await listen((_req, res) => res.end(), { host: '127.0.0.1', port: 0 });
  const port = Number(new URL(first.address).port);
  const err = await t.throwsAsync(listen((_req, res) => res.end(), { host: '127.0.0.1', port }));
  t.is((err as NodeJS.ErrnoException).code, 'EADDRINUSE');
  await first.shutdown(1000);
});

test('an idle connection is kept for 65 s, past a load balancer\'s usual 60 s, and the answer says so', async (t) => {
  const server = await listen((_req, res) => res.end('ok'), { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.shutdown(1_000));
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    const req = request(`${server.address}/`, { headers: { Connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['keep-alive'] as string | undefined));
    });
    req.on('error', reject);
    req.end();
  });
  t.is(keepAlive, 'timeout=65');
});
