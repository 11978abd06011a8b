/**
 * SIGTERM under load, as an operator rolling a deployment sees it: with requests in flight and
 * snapshot streams open, `ensign server` and `ensign evaluator` answer every request already taken,
 * end the streams (their clients reconnect elsewhere), and exit 0 within `server.shutdown_timeout`.
 */
import { request } from 'node:http';
import { type EnsignProcess, eventually, jsonClient, startEnsign } from '@ensign/testkit';
import { openStream } from '@ensign/testkit/stream-client';
import test, { type ExecutionContext } from 'ava';
import { ok, uniqueKey } from '../helpers/api.js';
import { testBucket } from '../helpers/scale-out.js';

const SHUTDOWN_TIMEOUT_MS = 20_000;
const EVALUATIONS = 30;
const WRITES = 10;

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
}

/** A request the process has taken (its handler runs) whose body is not sent yet. */
interface Held {
  send(): void;
  answered: Promise<Answer>;
}

/** Sends the head of a POST with `Expect: 100-continue`; resolves once the process confirms it took the request. */
function hold(target: EnsignProcess, path: string, body: unknown): Promise<Held> {
  const text = JSON.stringify(body);
  return new Promise((taken, reject) => {
    let answer!: (reply: Answer) => void;
    let cut!: (err: Error) => void;
    const answered = new Promise<Answer>((resolve, fail) => ((answer = resolve), (cut = fail)));
    // Awaited only once every body is sent: a request cut before then must not count as unhandled.
    answered.catch(() => undefined);
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), Expect: '100-continue' },
      },
      (res) => {
        let received = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
        res.on('end', () => answer({ status: res.statusCode ?? 0, body: received, connection: res.headers.connection }));
      },
    );
    req.on('error', (err) => {
      reject(err);
      cut(err);
    });
    req.on('continue', () => taken({ send: () => req.end(text), answered }));
  });
}

/**
 * Holds evaluations of `flagKey` (and, on a server, flag writes) in flight with an NDJSON and an SSE
 * stream open, sends SIGTERM, and checks what the clients get and how the process ends.
 */
async function drainUnderLoad(t: ExecutionContext, target: EnsignProcess, ns: string, flagKey: string, writes: number): Promise<void> {
  const evaluation = { namespaceKey: ns, flagKey, entityId: 'someone', context: {} };
  const held = await Promise.all([
    ...Array.from({ length: EVALUATIONS }, () => hold(target, '/evaluate/v1/boolean', evaluation)),
    ...Array.from({ length: writes }, (_, i) => hold(target, `/api/v1/namespaces/${ns}/flags`, { key: `during-shutdown-${i}`, name: 'Written during shutdown', type: 'BOOLEAN_FLAG_TYPE' })),
  ]);
  const streamUrl = `${target.baseUrl}/client/v2/environments/default/namespaces/${ns}/stream`;
  const streams = await Promise.all([openStream(streamUrl), openStream(streamUrl, { Accept: 'text/event-stream' })]);
  for (const stream of streams) {
    t.teardown(() => stream.close());
    t.is(stream.status, 200);
    await stream.message(0);
  }

  const signalled = Date.now();
  process.kill(target.pid, 'SIGTERM');
  t.true(await eventually(() => target.logs().includes('"msg":"shutting down"')), target.logs());
  await Promise.all(streams.map((stream) => stream.ended));
  t.deepEqual(
    streams.map((stream) => stream.badLines),
    [[], []],
    'the streams end cleanly, without a torn message',
  );

  // The requests taken before the signal finish now, while the process is shutting down.
  for (const request of held) request.send();
  const answers = await Promise.all(held.map((request) => request.answered));
  for (const [i, answer] of answers.entries()) {
    t.is(answer.status, 200, answer.body);
    t.is(answer.connection, 'close', 'the client is told not to reuse the connection');
    if (i < EVALUATIONS) t.like(JSON.parse(answer.body), { enabled: true, flagKey });
    else t.like(JSON.parse(answer.body), { key: `during-shutdown-${i - EVALUATIONS}` });
  }

  t.is(await target.exited, 0, target.logs());
  t.true(Date.now() - signalled < SHUTDOWN_TIMEOUT_MS, 'drained within server.shutdown_timeout');
  t.false(target.logs().includes('shutdown timeout reached'), 'nothing was cut off at the timeout');
  t.true(target.logs().includes('"msg":"stopped"'));
}

test('ensign server: SIGTERM answers the requests in flight, ends the streams and exits 0 in time', async (t) => {
  const server = await startEnsign({ env: { ENSIGN_SERVER_SHUTDOWN_TIMEOUT: `${SHUTDOWN_TIMEOUT_MS}ms`, ENSIGN_LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  const api = jsonClient(server.baseUrl);
  const ns = uniqueKey('drain');
  ok(await api.post('/api/v1/namespaces', { key: ns, name: 'Drain' }));
  ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  await drainUnderLoad(t, server, ns, 'on', WRITES);
});

test('ensign evaluator: SIGTERM answers the evaluations in flight, ends the streams and exits 0 in time', async (t) => {
  const nats = testBucket();
  t.teardown(() => nats.drop());
  const server = await startEnsign({ env: nats.env() });
  t.teardown(() => server.stop());
  const api = jsonClient(server.baseUrl);
  const ns = uniqueKey('drain');
  ok(await api.post('/api/v1/namespaces', { key: ns, name: 'Drain' }));
  ok(await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  const evaluator = await startEnsign({ command: 'evaluator', env: { ...nats.env(), ENSIGN_SERVER_SHUTDOWN_TIMEOUT: `${SHUTDOWN_TIMEOUT_MS}ms`, ENSIGN_LOG_LEVEL: 'info' } });
  t.teardown(() => evaluator.stop());
  const evaluations = jsonClient(evaluator.baseUrl);
  t.true(await eventually(async () => (await evaluations.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'on', entityId: 'someone', context: {} })).status === 200), 'the evaluator holds the namespace');
  await drainUnderLoad(t, evaluator, ns, 'on', 0);
});
