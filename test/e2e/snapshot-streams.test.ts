/**
 * Flipt's snapshot stream end to end, read by a client written to its framing: served by
 * `ensign server` and by an `ensign evaluator` on the same bucket, a write arrives on both (NDJSON
 * and SSE); namespaced tokens are held to their namespace; an evaluator cut off from NATS keeps its
 * streams open, quiet, and sends the current state once it is back.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { type EnsignProcess, freePort, startEnsign, TcpProxy } from '@ensign/testkit';
import { openStream, type StreamClient } from '@ensign/testkit/stream-client';
import { ok } from '../helpers/api.js';
import { withToken } from '../helpers/auth.js';
import { NATS_PORT, testBucket } from '../helpers/scale-out.js';

const nats = testBucket();
const BOOTSTRAP = `streams-e2e-${randomBytes(8).toString('hex')}`;
const NS = `streams-${randomBytes(4).toString('hex')}`;
const processes: EnsignProcess[] = [];
const proxies: TcpProxy[] = [];
const streams: StreamClient<any>[] = [];

test.after.always(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await nats.drop();
});

const AUTH_ENV = {
  ENSIGN_AUTHENTICATION_REQUIRED: 'true',
  ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
  ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
};

async function start(command: 'server' | 'evaluator', natsUrl?: string): Promise<EnsignProcess> {
  const p = await startEnsign({ command, env: { ...nats.env(natsUrl), ...AUTH_ENV } });
  processes.push(p);
  return p;
}

const streamPath = (ns: string) => `/client/v2/environments/default/namespaces/${ns}/stream`;

async function open(baseUrl: string, token: string, ns: string, headers: Record<string, string> = {}): Promise<StreamClient<any>> {
  const stream = await openStream(`${baseUrl}${streamPath(ns)}`, { Accept: 'application/json', Authorization: `Bearer ${token}`, ...headers });
  streams.push(stream);
  return stream;
}

const descriptionOf = (message: any, key: string): string => message.flags.find((f: any) => f.key === key)?.description;

/** Resolves with the first message (from `from` on) whose flag `key` has `description`. */
async function arrival(stream: StreamClient<any>, from: number, key: string, description: string): Promise<any> {
  for (let i = from; ; i++) {
    const message = await stream.message(i, 10_000);
    if (descriptionOf(message, key) === description) return message;
  }
}

let server: EnsignProcess;
let evaluator: EnsignProcess;

test.serial('a write reaches streams on the server and on an evaluator, in NDJSON and SSE', async (t) => {
  server = await start('server');
  evaluator = await start('evaluator');
  const api = withToken(server.baseUrl, BOOTSTRAP);
  ok(await api.post('/api/v1/namespaces', { key: NS, name: NS }));
  ok(await api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: true, description: 'v0' }));
  // The evaluator answers once the namespace has reached it.
  for (let i = 0; i < 100; i++) {
    const reply = await withToken(evaluator.baseUrl, BOOTSTRAP).post('/evaluate/v1/boolean', { namespaceKey: NS, flagKey: 'banner', entityId: 'u' });
    if (reply.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const onServer = await open(server.baseUrl, BOOTSTRAP, NS);
  const onEvaluator = await open(evaluator.baseUrl, BOOTSTRAP, NS);
  const sse = await open(evaluator.baseUrl, BOOTSTRAP, NS, { Accept: 'text/event-stream' });
  for (const stream of [onServer, onEvaluator]) {
    t.is(stream.status, 200);
    t.is(stream.headers['content-type'], 'application/json');
    const first = await stream.message(0);
    t.is(descriptionOf(first, 'banner'), 'v0');
    t.regex(first.digest, /^[0-9a-f]{40}$/);
  }
  t.is((await onServer.message(0)).digest, (await onEvaluator.message(0)).digest, 'server and evaluator announce the same digest');
  const sseFirst = await sse.message(0);
  t.is(JSON.parse(sseFirst.data).etag, (await onEvaluator.message(0)).digest);

  ok(await api.put(`/api/v1/namespaces/${NS}/flags/banner`, { key: 'banner', name: 'Banner', enabled: false, description: 'v1' }));
  const [a, b] = await Promise.all([arrival(onServer, 1, 'banner', 'v1'), arrival(onEvaluator, 1, 'banner', 'v1')]);
  t.false(a.flags[0].enabled);
  t.is(a.digest, b.digest);
  const refetch = JSON.parse((await sse.message(1, 10_000)).data);
  t.deepEqual(refetch, { etag: b.digest, type: 'refetchEvaluation' });
  t.deepEqual([...onServer.badLines, ...onEvaluator.badLines], []);

  // /metrics counts the open streams by framing.
  const metrics = await (await fetch(`${evaluator.baseUrl}/metrics`)).text();
  t.regex(metrics, /ensign_streams_open\{framing="ndjson"\} 1/);
  t.regex(metrics, /ensign_streams_open\{framing="sse"\} 1/);
});

test.serial('namespaced tokens stream their own namespace only; no token is a 401 in the stream framing', async (t) => {
  const api = withToken(server.baseUrl, BOOTSTRAP);
  const created = ok(await api.post('/auth/v1/method/token', { name: 'ns-stream', description: '', namespaceKey: NS }));
  const scoped = created.clientToken as string;
  for (const target of [server, evaluator]) {
    let own: StreamClient<any> | undefined;
    for (let i = 0; i < 100 && own?.status !== 200; i++) {
      // The evaluator learns new tokens through the bucket.
      own?.close();
      own = await open(target.baseUrl, scoped, NS);
      if (own.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    t.is(own?.status, 200, target.baseUrl);
    t.truthy(await own?.message(0));
    const other = await open(target.baseUrl, scoped, 'default');
    await other.ended;
    t.is(other.status, 401, target.baseUrl);
    t.is(JSON.parse(other.text()).error.code, 16);
    const anonymous = await openStream(`${target.baseUrl}${streamPath(NS)}`);
    await anonymous.ended;
    t.is(anonymous.status, 401);
    t.deepEqual(JSON.parse(anonymous.text()), { error: { code: 16, message: 'request was not authenticated', details: [] } });
  }
});

test.serial('an evaluator cut off from NATS keeps its streams; they resume with the current state once it is back', async (t) => {
  const proxy = new TcpProxy(NATS_PORT, await freePort());
  proxies.push(proxy);
  await proxy.open();
  const cut = await start('evaluator', proxy.url('nats'));
  const api = withToken(server.baseUrl, BOOTSTRAP);
  const stream = await open(cut.baseUrl, BOOTSTRAP, NS);
  t.is(stream.status, 200);
  await stream.message(0);
  await proxy.close();
  ok(await api.put(`/api/v1/namespaces/${NS}/flags/banner`, { key: 'banner', name: 'Banner', enabled: true, description: 'during' }));
  ok(await api.put(`/api/v1/namespaces/${NS}/flags/banner`, { key: 'banner', name: 'Banner', enabled: true, description: 'after' }));
  t.true(await stream.quietFor(500), 'no message while NATS is away');
  t.false(stream.destroyed(), 'the stream stays open');
  await proxy.open();
  const resumed = await arrival(stream, 1, 'banner', 'after');
  t.true(resumed.flags[0].enabled);
  t.deepEqual(stream.badLines, []);
});
