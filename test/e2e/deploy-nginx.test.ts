/**
 * deploy/nginx/*.conf run by real nginx: in front of two `ensign server` on one PostgreSQL database
 * and two `ensign evaluator` on NATS, then in front of stub upstreams that fail on purpose, to
 * show which requests nginx retries on the other instance.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createTestDatabase, type EnsignProcess, freePort, jsonClient, type JsonClient, startEnsign, type TestDatabase } from '@ensign/testkit';
import { openStream } from '@ensign/testkit/stream-client';
import test from 'ava';
import { ok, uniqueKey } from '../helpers/api.js';
import { clientWith } from '../helpers/auth.js';
import { findNginx, running, startNginx } from '../helpers/nginx.js';
import { delay, testBucket } from '../helpers/scale-out.js';

const NOT_FOUND = { code: 5, message: 'Not Found', details: [] };

// ---------------------------------------------------------------------------------------------
// Real control planes and evaluators behind nginx.

const bucket = testBucket();
let database: TestDatabase | undefined;
const controlPlanes: EnsignProcess[] = [];
const evaluators: EnsignProcess[] = [];
let cp: JsonClient;
let ev: JsonClient;
let ns: string;

test.before(async () => {
  findNginx();
  database = await createTestDatabase('postgres');
  // Info level: one log line per request shows which control plane served it.
  const serverEnv = { ENSIGN_DB_URL: database.url, ENSIGN_LOG_LEVEL: 'info', ...bucket.env() };
  // Started together, as replicas are: the second waits for the first's migration lock.
  controlPlanes.push(...(await Promise.all([startEnsign({ env: serverEnv }), startEnsign({ env: serverEnv })])));
  const evaluatorEnv = { ENSIGN_LOG_LEVEL: 'warn', ...bucket.env() };
  evaluators.push(...(await Promise.all([startEnsign({ command: 'evaluator', env: evaluatorEnv }), startEnsign({ command: 'evaluator', env: evaluatorEnv })])));
  const nginx = await startNginx({
    'control-plane.conf': controlPlanes.map((p) => p.port),
    'evaluator.conf': evaluators.map((p) => p.port),
  });
  cp = jsonClient(nginx.url('control-plane.conf'));
  ev = jsonClient(nginx.url('evaluator.conf'));
});

test.after.always(async () => {
  await Promise.all([...running].map((nginx) => nginx.stop()));
  await Promise.all([...controlPlanes, ...evaluators].map((p) => p.stop()));
  await bucket.drop();
  await database?.drop();
});

/** Polls `client` (bounded, ~10 s) until `variantKey` of `flagKey` is `expected`; returns the last answer. */
async function evaluatesTo(client: JsonClient, flagKey: string, expected: string) {
  let res = await client.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey, entityId: 'u1' });
  for (let i = 0; i < 200 && !(res.status === 200 && res.body.variantKey === expected); i++) {
    await delay(50);
    res = await client.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey, entityId: 'u1' });
  }
  return res;
}

/** Creates flag `key` with one variant `variant` as its default, through `api`. */
async function createFlag(api: JsonClient, key: string, variant: string): Promise<void> {
  const base = `/api/v1/namespaces/${ns}/flags`;
  ok(await api.post(base, { key, name: key, enabled: true }), `create flag ${key}`);
  const id = ok(await api.post(`${base}/${key}/variants`, { key: variant }), 'create variant').id as string;
  ok(await api.put(`${base}/${key}`, { key, name: key, enabled: true, defaultVariantId: id }), 'set the default variant');
}

test.serial('through the control-plane nginx, writes and reads reach both control planes on the shared database', async (t) => {
  ns = uniqueKey('lb');
  ok(await cp.post('/api/v1/namespaces', { key: ns, name: 'Behind nginx' }), 'create namespace');
  await createFlag(cp, 'color', 'blue');
  for (let i = 0; i < 6; i++) {
    const flag = ok(await cp.get(`/api/v1/namespaces/${ns}/flags/color`), 'read back');
    t.deepEqual(flag.variants.map((v: { key: string }) => v.key), ['blue']);
    t.is(flag.defaultVariant?.key, 'blue');
  }
  for (const [i, server] of controlPlanes.entries()) {
    t.true(server.logs().includes(`"path":"/api/v1/namespaces/${ns}/flags/color"`), `control plane ${i + 1} served some of the requests`);
  }
});

test.serial('through the evaluator nginx, evaluations keep answering 200 after one evaluator is killed', async (t) => {
  // Both evaluators hold the namespace before one of them dies.
  for (const evaluator of evaluators) t.is((await evaluatesTo(jsonClient(evaluator.baseUrl), 'color', 'blue')).body.variantKey, 'blue');
  const variant = await evaluatesTo(ev, 'color', 'blue');
  t.like(variant, { status: 200, body: { variantKey: 'blue', reason: 'DEFAULT_EVALUATION_REASON' } });

  await evaluators[0]?.kill9();
  for (let i = 0; i < 10; i++) {
    const res = await ev.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: `u${i}` });
    t.like(res, { status: 200, body: { variantKey: 'blue' } }, `evaluation ${i} after the kill`);
  }
  const batch = await ev.post('/evaluate/v1/batch', { requests: [{ namespaceKey: ns, flagKey: 'color', entityId: 'u1' }] });
  t.is(batch.status, 200, batch.text);
  t.is(batch.body.responses[0].variantResponse.variantKey, 'blue');
  // Flipt's legacy routes and the client-side snapshot are routed to the evaluators too.
  t.like(await ev.post(`/api/v1/namespaces/${ns}/evaluate`, { flagKey: 'color', entityId: 'u1' }), { status: 200, body: { value: 'blue' } });
  t.like(await ev.post('/api/v1/evaluate', { namespaceKey: ns, flagKey: 'color', entityId: 'u1' }), { status: 200, body: { value: 'blue' } });
  const legacyBatch = await ev.post(`/api/v1/namespaces/${ns}/batch-evaluate`, { requests: [{ flagKey: 'color', entityId: 'u1' }] });
  t.is(legacyBatch.status, 200, legacyBatch.text);
  t.is(legacyBatch.body.responses[0].value, 'blue');
  t.is((await ev.get(`/internal/v1/evaluation/snapshot/namespace/${ns}`)).status, 200);
});

test.serial('through the evaluator nginx, a snapshot stream stays open while quiet longer than the read timeout, and carries the next change', async (t) => {
  const stream = await openStream(`${ev.baseUrl}/client/v2/environments/default/namespaces/${ns}/stream`);
  t.teardown(() => stream.close());
  t.is(stream.status, 200);
  const first = await stream.message(0, 10_000);
  // Quiet for longer than the evaluation routes' 3 s proxy_read_timeout, which would cut it.
  t.true(await stream.quietFor(4_000));
  t.false(stream.destroyed(), 'nginx kept the quiet stream open');
  ok(await cp.post(`/api/v1/namespaces/${ns}/flags`, { key: 'streamed', name: 'streamed', type: 'BOOLEAN_FLAG_TYPE', enabled: true }), 'create a flag');
  const next = await stream.message(1, 10_000);
  t.not(next.digest, first.digest);
  t.true((next.flags as Array<{ key: string }>).some((f) => f.key === 'streamed'), 'the change arrived on the same stream');
});

test.serial('the evaluator nginx answers 404 for everything but evaluation', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/v1/namespaces'],
    ['POST', `/api/v1/namespaces/${ns}/flags`],
    ['GET', `/api/v1/namespaces/${ns}/flags/color`],
    ['GET', '/health'],
    ['GET', '/metrics'],
  ] as const) {
    const res = await ev.request(method, path, method === 'POST' ? { key: 'x', name: 'x' } : undefined);
    t.is(res.status, 404, `${method} ${path}`);
    t.deepEqual(res.body, NOT_FOUND, `${method} ${path}`);
  }
  t.is((await cp.get(`/api/v1/namespaces/${ns}/flags/x`)).status, 404, 'nothing was created through the evaluator nginx');
});

/** Waits (bounded) until `check` holds, failing with `what`. */
async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(20);
  }
}

/** How many write streams run at once through the control-plane nginx while an instance is killed. */
const WRITERS = 4;

/** The answers to each step of a write stream: a flag create and a constraint create. */
interface WriteStep {
  key: string;
  flag: number;
  constraint: number;
}

test.serial('a control plane killed -9 during writes: every acknowledged write is stored once and reaches the evaluators', async (t) => {
  const base = `/api/v1/namespaces/${ns}`;
  ok(await cp.post(`${base}/segments`, { key: 'audience', name: 'Audience', matchType: 'ALL_MATCH_TYPE' }), 'segment');
  const steps: WriteStep[] = [];
  const status = (sent: Promise<{ status: number }>) => sent.then((res) => res.status, () => 0);
  let stopping = false;
  // Each step makes two creates: a flag has a key (sent twice, the second would be refused 409),
  // a constraint has none (sent twice, it would be stored twice). Four writers at once, so the
  // kill finds requests in flight.
  const writers = Array.from({ length: WRITERS }, (_, lane) =>
    (async () => {
      for (let i = 0; !stopping; i++) {
        const key = `k-${lane}-${i}`;
        const flag = await status(cp.post(`${base}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
        const constraint = await status(cp.post(`${base}/segments/audience/constraints`, { type: 'STRING_COMPARISON_TYPE', property: key, operator: 'eq', value: 'x' }));
        steps.push({ key, flag, constraint });
        await delay(20);
      }
    })(),
  );
  await until('writes go through both control planes', () => steps.length >= 20);
  await controlPlanes[0]?.kill9();
  const atKill = steps.length;
  await until('writes are acknowledged again after the kill', () => steps.length >= atKill + 40 && steps.slice(-WRITERS).every((s) => s.flag === 200 && s.constraint === 200));
  stopping = true;
  await Promise.all(writers);

  const failed = steps.filter((s) => s.flag !== 200 || s.constraint !== 200);
  t.log(`${steps.length} steps, ${failed.length} with an answer other than 200 (the requests in flight at the kill): ${JSON.stringify(failed)}`);
  t.deepEqual(steps.filter((s) => s.flag === 409), [], 'no create was sent twice');
  // A write in flight at the kill is answered 502 and never resent; so, rarely, is the next one of
  // its writer, sent on a kept-alive connection to the killed instance before nginx saw it close.
  t.true(failed.length <= 2 * WRITERS, 'only the writes in flight at the kill failed');

  const flags = new Set(ok<{ flags: Array<{ key: string }> }>(await cp.get(`${base}/flags?limit=1000`)).flags.map((f) => f.key));
  t.deepEqual(steps.filter((s) => s.flag === 200 && !flags.has(s.key)).map((s) => s.key), [], 'every acknowledged flag is stored');
  const constraints = ok<{ constraints: Array<{ property: string }> }>(await cp.get(`${base}/segments/audience`)).constraints.map((c) => c.property);
  const stored = (key: string) => constraints.filter((p) => p === key).length;
  t.deepEqual(steps.filter((s) => stored(s.key) > 1).map((s) => s.key), [], 'no constraint is stored twice');
  t.deepEqual(steps.filter((s) => s.constraint === 200 && stored(s.key) !== 1).map((s) => s.key), [], 'every acknowledged constraint is stored once');

  // The evaluator still running, and one started now from what the bus holds, serve every acknowledged flag.
  const joined = await startEnsign({ command: 'evaluator', env: { ENSIGN_LOG_LEVEL: 'warn', ...bucket.env() } });
  evaluators.push(joined);
  const requests = steps.filter((s) => s.flag === 200).map((s) => ({ namespaceKey: ns, flagKey: s.key, entityId: 'u1' }));
  for (const evaluator of [evaluators[1], joined]) {
    const client = jsonClient(evaluator!.baseUrl);
    let missing: string[] = [];
    // Bounded (~10 s): the last writes may still be on their way over the bus.
    for (let i = 0; i < 200; i++) {
      const batch = await client.post('/evaluate/v1/batch', { requests });
      missing = batch.status === 200 ? (batch.body.responses as Array<{ responseType: string }>).flatMap((r, j) => (r.responseType === 'RESPONSE_TYPE_ERROR' ? [requests[j]!.flagKey] : [])) : [`the batch was answered ${batch.status}`];
      if (missing.length === 0) break;
      await delay(50);
    }
    t.deepEqual(missing, [], `evaluator on port ${evaluator!.port} serves every acknowledged flag`);
  }
});

test.serial('with one control plane killed, writes through nginx still succeed and reach the evaluators', async (t) => {
  // Each write to the dead instance is refused before it is sent, so nginx sends it to the other.
  await createFlag(cp, 'size', 'large');
  ok(await cp.del(`/api/v1/namespaces/${ns}/flags/color`), 'delete a flag');
  t.is(ok(await cp.get(`/api/v1/namespaces/${ns}/flags/size`)).defaultVariant?.key, 'large');
  t.like(await evaluatesTo(ev, 'size', 'large'), { status: 200, body: { variantKey: 'large' } });
  let deleted = await ev.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1' });
  for (let i = 0; i < 200 && deleted.status !== 404; i++) {
    await delay(50);
    deleted = await ev.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: 'u1' });
  }
  t.is(deleted.status, 404, 'the delete reached the evaluators');
});

// ---------------------------------------------------------------------------------------------
// Stub upstreams: which requests nginx sends to the other instance.

/** What a stand-in instance does with a request: answer 200, drop the connection unanswered, or never answer. */
type StubMode = 'answer' | 'drop' | 'hang';

/**
 * Sent on every request of this file. A stub records only requests carrying it: a client of a
 * parallel test that still retries a port this stub now has must not count as a retry of nginx's.
 */
const RUN_HEADER = 'x-ensign-test-run';
const RUN_ID = randomUUID();

/** A stand-in upstream that records each request of this file it receives. */
class StubUpstream {
  readonly requests: IncomingMessage[] = [];
  readonly sockets = new Set<unknown>();
  port = 0;
  private readonly server: Server;

  constructor(mode: StubMode) {
    this.server = createServer((req, res) => {
      if (req.headers[RUN_HEADER] !== RUN_ID) {
        res.writeHead(421).end();
        return;
      }
      this.requests.push(req);
      this.sockets.add(req.socket);
      req.resume();
      req.on('end', () => {
        if (mode === 'drop') req.socket.destroy();
        if (mode === 'answer') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A fresh nginx running `conf` (fresh, so no instance starts out marked failed) in front of one
 * stub per mode; `refused` is a port nothing listens on.
 */
async function stubbed(conf: string, modes: Array<StubMode | 'refused'>, overrides: Record<string, string> = {}) {
  const stubs = await Promise.all(modes.filter((m) => m !== 'refused').map((mode) => new StubUpstream(mode as StubMode).listen()));
  const listening = [...stubs];
  const ports = await Promise.all(modes.map(async (mode) => (mode === 'refused' ? freePort() : (listening.shift() as StubUpstream).port)));
  const nginx = await startNginx({ [conf]: ports }, overrides);
  return {
    api: clientWith(nginx.url(conf), { [RUN_HEADER]: RUN_ID }),
    stubs,
    hits: (): number => stubs.reduce((sum, s) => sum + s.requests.length, 0),
    stop: async (): Promise<void> => {
      await nginx.stop();
      await Promise.all(stubs.map((s) => s.close()));
    },
  };
}

/** Sends `method path` through a fresh nginx over stubs; resolves the status and how many stubs received it. */
async function attempt(conf: string, modes: Array<StubMode | 'refused'>, method: string, path: string, overrides: Record<string, string> = {}) {
  const setup = await stubbed(conf, modes, overrides);
  try {
    const res = await setup.api.request(method, path, ['POST', 'PUT', 'PATCH'].includes(method) ? { key: 'shop', name: 'Shop' } : undefined);
    return { status: res.status, received: setup.hits() };
  } finally {
    await setup.stop();
  }
}

// The tests wait for a timed-out attempt; the configurations' own read timeouts are longer.
const SHORT_READ_TIMEOUT = { proxy_read_timeout: '1s' };

test.serial('control-plane nginx: a write goes to the other instance when the first refuses the connection', async (t) => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    t.deepEqual(await attempt('control-plane.conf', ['refused', 'answer'], method, '/api/v1/namespaces/shop'), { status: 200, received: 1 }, method);
    t.deepEqual(await attempt('control-plane.conf', ['answer', 'refused'], method, '/api/v1/namespaces/shop'), { status: 200, received: 1 }, method);
  }
});

test.serial('control-plane nginx: a read is retried after a dropped connection; a POST or PATCH that was sent never is', async (t) => {
  const path = '/api/v1/namespaces/shop';
  for (const [method, received] of [['GET', 2], ['HEAD', 2], ['POST', 1], ['PATCH', 1], ['PUT', 2], ['DELETE', 2]] as const) {
    t.deepEqual(await attempt('control-plane.conf', ['drop', 'drop'], method, path), { status: 502, received }, `${method}: instances that received it`);
  }
});

test.serial('control-plane nginx: a write that timed out is not sent to another instance, which could apply it twice', async (t) => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    t.deepEqual(await attempt('control-plane.conf', ['hang', 'hang'], method, '/api/v1/namespaces/shop', SHORT_READ_TIMEOUT), { status: 504, received: 1 }, method);
  }
});

test.serial('control-plane nginx: forwarded headers, upstream keep-alive and the body limit', async (t) => {
  const setup = await stubbed('control-plane.conf', ['answer', 'answer']);
  try {
    for (let i = 0; i < 6; i++) t.is((await setup.api.get('/api/v1/namespaces')).status, 200);
    const sent = setup.stubs.flatMap((s) => s.requests)[0]?.headers;
    t.is(sent?.['x-forwarded-for'], '127.0.0.1');
    t.is(sent?.['x-forwarded-proto'], 'http');
    t.is(sent?.['x-real-ip'], '127.0.0.1');
    t.is(sent?.host, new URL(setup.api.baseUrl).hostname);
    for (const stub of setup.stubs) {
      t.is(stub.requests.length, 3, 'requests are balanced over both instances');
      t.is(stub.sockets.size, 1, 'one kept-alive connection per instance carries them');
    }
    const big = await setup.api.post('/api/v1/namespaces', { key: 'big', name: 'x'.repeat(1_100_000) });
    t.is(big.status, 413, 'a body over server.body_limit is refused by nginx');
    t.is(setup.hits(), 6, 'the refused body never reached an instance');
  } finally {
    await setup.stop();
  }
});

test.serial('evaluator nginx: a failed or timed-out evaluation POST is retried on the other evaluator', async (t) => {
  const path = '/evaluate/v1/variant';
  t.deepEqual(await attempt('evaluator.conf', ['drop', 'drop'], 'POST', path), { status: 502, received: 2 });
  t.deepEqual(await attempt('evaluator.conf', ['hang', 'hang'], 'POST', path, SHORT_READ_TIMEOUT), { status: 504, received: 2 });
  const oneFails: Array<[Array<StubMode>, Record<string, string>]> = [
    [['drop', 'answer'], {}],
    [['answer', 'drop'], {}],
    [['hang', 'answer'], SHORT_READ_TIMEOUT],
  ];
  for (const [modes, overrides] of oneFails) {
    t.is((await attempt('evaluator.conf', modes, 'POST', path, overrides)).status, 200, `${modes.join(', ')}: the client gets an answer`);
  }
});

test.serial('evaluator nginx: only evaluation routes reach an evaluator', async (t) => {
  const setup = await stubbed('evaluator.conf', ['answer', 'answer']);
  try {
    const routes: Array<[string, string, boolean]> = [
      ['POST', '/evaluate/v1/variant', true],
      ['POST', '/evaluate/v1/boolean', true],
      ['POST', '/evaluate/v1/batch', true],
      ['POST', '/evaluate/v1/namespaces/shop/variant', true],
      ['GET', '/ofrep/v1/configuration', true],
      ['POST', '/ofrep/v1/evaluate/flags', true],
      ['POST', '/ofrep/v1/evaluate/flags/color', true],
      ['GET', '/internal/v1/evaluation/snapshot/namespace/shop', true],
      ['GET', '/client/v2/environments/default/namespaces/shop/stream', true],
      ['GET', '/ofrep/v1/_stream/default/shop/events', true],
      ['GET', '/client/v2/environments/default/namespaces/shop/snapshot', false],
      ['POST', '/api/v1/evaluate', true],
      ['POST', '/api/v1/batch-evaluate', true],
      ['POST', '/api/v1/namespaces/shop/evaluate', true],
      ['POST', '/api/v1/namespaces/shop/batch-evaluate', true],
      ['GET', '/api/v1/namespaces', false],
      ['POST', '/api/v1/namespaces/shop/flags', false],
      ['POST', '/api/v1/namespaces/shop/evaluate/extra', false],
      ['GET', '/internal/v1/other', false],
      ['GET', '/auth/v1/self', false],
      ['GET', '/health', false],
      ['GET', '/metrics', false],
    ];
    for (const [method, path, passed] of routes) {
      const before = setup.hits();
      const res = await setup.api.request(method, path, method === 'POST' ? {} : undefined);
      t.is(res.status, passed ? 200 : 404, `${method} ${path}`);
      if (!passed) t.deepEqual(res.body, NOT_FOUND, `${method} ${path}: Flipt's not-found body`);
      t.is(setup.hits() - before, passed ? 1 : 0, `${method} ${path} ${passed ? 'reaches' : 'never reaches'} an evaluator`);
    }
  } finally {
    await setup.stop();
  }
});
