/**
 * `.ci/run` checks that NATS answers JetStream, not only that its port is open: a NATS started
 * without `-js` accepts connections but cannot serve the snapshot bucket, and the suite would fail
 * far from the cause. The check is `tools/check-jetstream.mjs`, run once `npm ci` installed `nats`.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { eventually, freePort, repositoryRoot } from '@ensign/testkit';
import test from 'ava';

const check = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [join(repositoryRoot, 'tools/check-jetstream.mjs'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((path) => existsSync(path));

test('the NATS the tests use answers JetStream', async (t) => {
  const result = await check('nats://127.0.0.1:4222', '--wait', '0');
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /^JetStream answers at nats:\/\/127\.0\.0\.1:4222/);
});

test('a NATS started without -js is refused, naming JetStream, although its port is open', async (t) => {
  if (NATS_SERVER === undefined) return t.fail('nats-server is not installed (.ci/run starts it from /usr/sbin)');
  const port = await freePort();
  const server = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  t.teardown(() => void server.kill());
  t.true(await eventually(() => accepts(port)), 'the plain NATS accepts connections');
  const result = await check(`nats://127.0.0.1:${port}`, '--wait', '0');
  t.is(result.code, 1);
  t.is(result.stderr, `NATS at nats://127.0.0.1:${port} does not answer JetStream requests (JetStream is not enabled); start nats-server with -js\n`);
});

test('nothing listening is refused with the reason', async (t) => {
  const port = await freePort();
  const result = await check(`nats://127.0.0.1:${port}`, '--wait', '0');
  t.is(result.code, 1);
  t.regex(result.stderr, /^NATS at nats:\/\/127\.0\.0\.1:\d+ does not answer JetStream requests \(CONNECTION_REFUSED\)/);
});

test('.ci/run checks JetStream once npm ci has installed the client, before the tests', (t) => {
  const lines = readFileSync(join(repositoryRoot, '.ci/run'), 'utf8').split('\n').map((line) => line.trim());
  const at = (command: string) => lines.indexOf(command);
  const checkAt = lines.findIndex((line) => line.startsWith('node tools/check-jetstream.mjs'));
  t.true(checkAt > at('npm ci') && at('npm ci') !== -1, 'after npm ci');
  t.true(checkAt < at('npm test'), 'before npm test');
});
