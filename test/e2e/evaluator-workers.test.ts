/**
 * `ensign evaluator --workers 2`, as an operator running one evaluator per machine sees it: one
 * HTTP port and one gRPC port answered by both workers, one `/metrics` adding up both, evaluation
 * counts stored exactly once, snapshot streams on both workers, a worker killed and replaced while
 * the port keeps answering, and SIGTERM draining everything to exit 0.
 */
import { request } from 'node:http';
import { status } from '@grpc/grpc-js';
import { type EnsignProcess, eventually, type JsonClient, jsonClient, startEnsign } from '@ensign/testkit';
import { openStream, type StreamClient } from '@ensign/testkit/stream-client';
import test, { type ExecutionContext } from 'ava';
import { ok } from '../helpers/api.js';
import { type SeededShop, seedShop } from '../helpers/evaluation-seed.js';
import { serviceClient } from '../helpers/grpc-client.js';
import { testBucket } from '../helpers/scale-out.js';

const SHUTDOWN_TIMEOUT_MS = 20_000;
const nats = testBucket();
let server: EnsignProcess;
let evaluator: EnsignProcess;
let api: JsonClient;
let shop: SeededShop;

test.before(async () => {
  const env = { ...nats.env(), ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '1s', ENSIGN_LOG_LEVEL: 'info' };
  server = await startEnsign({ env });
  api = jsonClient(server.baseUrl);
  shop = await seedShop(api, 'workers');
  evaluator = await startEnsign({ command: 'evaluator', args: ['--workers', '2'], env: { ...env, ENSIGN_SERVER_SHUTDOWN_TIMEOUT: `${SHUTDOWN_TIMEOUT_MS}ms` } });
  // /health answers once the first worker listens; the primary says when both do.
  if (!(await within(60_000, () => evaluator.logs().includes('"msg":"evaluator listening"')))) throw new Error(`the workers never all answered:\n${evaluator.logs()}`);
  // The probes evaluate `split`, which the counts below leave out.
  const probe = { namespaceKey: shop.ns, flagKey: 'split', entityId: 'probe' };
  if (!(await within(60_000, async () => (await evaluateOnce('/evaluate/v1/variant', probe)).status === 200))) throw new Error(`the evaluator never held ${shop.ns}:\n${evaluator.logs()}`);
});

test.after.always(async () => {
  await evaluator?.stop();
  await server?.stop();
  await nats.drop();
});

/** Polls `check` every 50 ms for at most `ms`; resolves whether it held. */
async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) if (await check()) return true;
  return false;
}

/** One evaluation on a connection of its own: the primary hands each new connection to the next worker. */
function evaluateOnce(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: evaluator.port, method: 'POST', path, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      let received = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: received === '' ? undefined : JSON.parse(received) }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** The samples of `name` in the evaluator's `/metrics`, by their label text. */
async function samples(name: string): Promise<Map<string, number>> {
  const text = ok(await jsonClient(evaluator.baseUrl).get('/metrics'), '/metrics') as string;
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

/** The workers by slot, with their pids, as `/metrics` names them. */
async function workers(): Promise<Map<string, { pid: number; requests: number }>> {
  const byWorker = new Map<string, { pid: number; requests: number }>();
  for (const [labels, requests] of await samples('ensign_evaluator_worker_requests_total')) {
    const [, slot = '', pid = ''] = /worker="(\d+)",pid="(\d+)"/.exec(labels) ?? [];
    byWorker.set(slot, { pid: Number(pid), requests });
  }
  return byWorker;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The sum of the server's analytics series of a flag over the last hour. */
async function analyticsSum(flag: string): Promise<number> {
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const res = await api.get(`/internal/v1/analytics/namespaces/${shop.ns}/flags/${flag}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  return ok<{ values: number[] }>(res, `analytics of ${flag}`).values.reduce((a, b) => a + b, 0);
}

async function openStreams(t: ExecutionContext, count: number): Promise<StreamClient<unknown>[]> {
  const streams: StreamClient<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    // One after the other: each new connection goes to the worker after the last one's.
    const stream = await openStream(`${evaluator.baseUrl}/client/v2/environments/default/namespaces/${shop.ns}/stream`);
    t.teardown(() => stream.close());
    t.is(stream.status, 200);
    await stream.message(0);
    streams.push(stream);
  }
  return streams;
}

test.serial('both workers answer on one port; /metrics adds them up and the evaluation counts are stored once', async (t) => {
  const made = { color: 0, 'new-ui': 0 };
  for (let i = 0; i < 20; i++) {
    const variant = await evaluateOnce('/evaluate/v1/variant', { namespaceKey: shop.ns, flagKey: 'color', entityId: `u${i}`, context: { plan: i % 2 === 0 ? 'pro' : 'free' } });
    t.is(variant.status, 200);
    t.is(variant.body.variantKey, i % 2 === 0 ? 'blue' : 'red');
    const flag = await evaluateOnce('/evaluate/v1/boolean', { namespaceKey: shop.ns, flagKey: 'new-ui', entityId: `u${i}`, context: { email: 'a@corp.example' } });
    t.is(flag.status, 200);
    t.true(flag.body.enabled);
    made.color++;
    made['new-ui']++;
  }
  const grpc = serviceClient(evaluator.grpcAddress, 'flipt.evaluation.EvaluationService');
  t.teardown(() => grpc.close());
  for (let i = 0; i < 3; i++) {
    const call = await grpc.call<{ variantKey: string }>('Variant', { namespaceKey: shop.ns, flagKey: 'color', entityId: `g${i}`, context: { plan: 'pro' } });
    t.is(call.code, status.OK, call.details);
    t.is(call.response?.variantKey, 'blue');
    made.color++;
  }

  const byWorker = await workers();
  t.deepEqual([...byWorker.keys()].sort(), ['1', '2'], `both workers are listed:\n${JSON.stringify([...byWorker])}`);
  for (const [slot, { requests }] of byWorker) t.true(requests >= 5, `worker ${slot} answered ${requests} requests`);
  const requested = await samples('flipt_evaluations_requests_total');
  t.is(requested.get(`{namespace="${shop.ns}",flag="color"}`), made.color, 'the evaluations of both workers, summed');
  t.is(requested.get(`{namespace="${shop.ns}",flag="new-ui"}`), made['new-ui']);
  t.is((await samples('ensign_evaluator_workers')).get(''), 2);

  // Each worker ships its own counts under its own batch ids: the stored totals are the evaluations made.
  let stored = { color: 0, 'new-ui': 0 };
  await eventually(async () => {
    stored = { color: await analyticsSum('color'), 'new-ui': await analyticsSum('new-ui') };
    return stored.color >= made.color && stored['new-ui'] >= made['new-ui'];
  });
  t.deepEqual(stored, made);
});

test.serial('a worker killed with -9 is replaced while the port keeps answering; the other worker’s streams go on', async (t) => {
  const streams = await openStreams(t, 4);
  t.is((await samples('ensign_streams_open')).get('{framing="ndjson"}'), 4, 'open streams, summed over the workers');
  const before = await workers();
  const victim = before.get('1')?.pid ?? 0;
  t.true(alive(victim));

  process.kill(victim, 'SIGKILL');
  t.true(await eventually(() => evaluator.logs().includes('evaluator worker 1 exited with SIGKILL')), evaluator.logs());
  // Its connections went with it; every request made since is answered by the other worker.
  for (let i = 0; i < 10; i++) t.is((await evaluateOnce('/evaluate/v1/boolean', { namespaceKey: shop.ns, flagKey: 'new-ui', entityId: `k${i}`, context: {} })).status, 200);
  const ended = streams.filter((s) => s.destroyed());
  t.true(ended.length >= 1 && ended.length < streams.length, `${ended.length} of ${streams.length} streams ended with the killed worker`);

  ok(await api.put(`/api/v1/namespaces/${shop.ns}/flags/off`, { name: 'Off', enabled: true }), 'flag update');
  for (const stream of streams.filter((s) => !s.destroyed())) await stream.message(1, 10_000);

  let replaced: { pid: number; requests: number } | undefined;
  t.true(
    await eventually(async () => {
      replaced = (await workers()).get('1');
      return replaced !== undefined && replaced.pid !== victim;
    }),
    evaluator.logs(),
  );
  t.true(alive(replaced?.pid ?? 0), 'the replacement runs in slot 1');
  t.is((await samples('ensign_evaluator_worker_restarts_total')).get(''), 1);
  t.is((await samples('ensign_evaluator_workers')).get(''), 2);
  // New connections reach the replacement too.
  for (let i = 0; i < 10; i++) t.is((await evaluateOnce('/evaluate/v1/boolean', { namespaceKey: shop.ns, flagKey: 'new-ui', entityId: `r${i}`, context: {} })).status, 200);
  t.true(((await workers()).get('1')?.requests ?? 0) > 0, 'the replacement answers');
});

test.serial('SIGTERM drains every worker and the primary exits 0 within server.shutdown_timeout', async (t) => {
  const pids = [...(await workers()).values()].map((w) => w.pid);
  t.is(pids.length, 2);
  const streams = await openStreams(t, 2);
  const signalled = Date.now();
  t.is(await evaluator.stop('SIGTERM'), 0, evaluator.logs());
  t.true(Date.now() - signalled < SHUTDOWN_TIMEOUT_MS, 'drained within server.shutdown_timeout');
  t.true(await eventually(() => streams.every((s) => s.destroyed())), 'the streams were ended');
  t.deepEqual(pids.filter(alive), [], 'no worker is left running');
  t.regex(evaluator.logs(), /"msg":"stopped"/);
  t.notRegex(evaluator.logs(), /shutdown timeout reached/);
});

test.serial('workers whose primary is killed with -9 stop instead of running on without a port', async (t) => {
  const orphaned = await startEnsign({ command: 'evaluator', args: ['--workers', '2'], env: { ...nats.env(), ENSIGN_LOG_LEVEL: 'info' } });
  t.teardown(() => orphaned.stop('SIGKILL'));
  t.true(await within(60_000, () => orphaned.logs().includes('"msg":"evaluator listening"')), orphaned.logs());
  const pids = [...orphaned.logs().matchAll(/"workerPid":(\d+),"msg":"evaluator worker answering"/g)].map((m) => Number(m[1]));
  t.is(pids.length, 2, orphaned.logs());
  await orphaned.kill9();
  t.true(await within(30_000, () => pids.every((pid) => !alive(pid))), `workers still running: ${pids.filter(alive).join(', ')}`);
});
