/**
 * Analytics scaled out: one `ensign server` (SQLite) and two `ensign evaluator`s on one NATS
 * bucket. Every process counts its evaluations and ships them each second; the evaluators' batches
 * reach the server over NATS. The server's analytics then add up to exactly the evaluations made,
 * wherever they were made, and an evaluator that stops ships what it counted before it exits.
 */
import { type EnsignProcess, type JsonClient, jsonClient, startEnsign } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import { ok } from '../helpers/api.js';
import { seedShop } from '../helpers/evaluation-seed.js';
import { delay, testBucket } from '../helpers/scale-out.js';

const nats = testBucket();
const processes: EnsignProcess[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await nats.drop();
});

async function start(command: 'server' | 'evaluator', env: Record<string, string> = {}): Promise<EnsignProcess> {
  const p = await startEnsign({ command, env: { ...nats.env(), ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '1s', ...env } });
  processes.push(p);
  return p;
}

/** Evaluations made, by flag and then by value (variant key, or "true"/"false"). */
type Made = Record<string, Record<string, number>>;

function add(made: Made, flag: string, value: string): void {
  const values = (made[flag] ??= {});
  values[value] = (values[value] ?? 0) + 1;
}

/**
 * Evaluates `color` (variant: blue for plan pro, else the default red) and `new-ui` (boolean)
 * `times` times each through `api`, alternating contexts, and records what each answer said.
 */
async function evaluate(t: ExecutionContext, api: JsonClient, ns: string, times: number, made: Made): Promise<void> {
  for (let i = 0; i < times; i++) {
    const variant = await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'color', entityId: `u${i}`, context: { plan: i % 3 === 0 ? 'free' : 'pro' } });
    t.is(variant.status, 200, variant.text);
    add(made, 'color', variant.body.variantKey);
    const flag = await api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'new-ui', entityId: `u${i}`, context: { email: i % 2 === 0 ? 'a@corp.example' : 'b@else.example' } });
    t.is(flag.status, 200, flag.text);
    add(made, 'new-ui', String(flag.body.enabled));
  }
}

const total = (values: Record<string, number> = {}): number => Object.values(values).reduce((a, b) => a + b, 0);

/** The sum of the server's analytics series of a flag, over a window around the test. */
async function analyticsSum(api: JsonClient, ns: string, flag: string, since: number): Promise<number> {
  const from = new Date(since - 60_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const res = await api.get(`/internal/v1/analytics/namespaces/${ns}/flags/${flag}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  const body = ok<{ timestamps: string[]; values: number[] }>(res, `analytics of ${flag}`);
  return body.values.reduce((a, b) => a + b, 0);
}

/** Polls (bounded) until the server's analytics of every flag of `made` add up to its evaluations; returns the last sums. */
async function settledSums(api: JsonClient, ns: string, made: Made, since: number): Promise<Record<string, number>> {
  let sums: Record<string, number> = {};
  for (let i = 0; i < 100; i++) {
    sums = {};
    for (const flag of Object.keys(made)) sums[flag] = await analyticsSum(api, ns, flag, since);
    if (Object.keys(made).every((flag) => sums[flag] === total(made[flag]))) break;
    await delay(200);
  }
  return sums;
}

/** Waits until `api` evaluates the seed's last flag, so it holds every flag seeded before it (the probes are counted under `split` only). */
async function holds(api: JsonClient, ns: string): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if ((await api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'split', entityId: 'probe' })).status === 200) return true;
    await delay(50);
  }
  return false;
}

/** The server's flag usage (an Ensign route): evaluations by value, over a window around the test. */
async function usageSplit(api: JsonClient, ns: string, flag: string, since: number): Promise<Record<string, number>> {
  const from = new Date(since - 3_600_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const res = await api.get(`/api/v1/namespaces/${ns}/flags/${flag}/usage?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  const body = ok<{ values: Array<{ value: string; count: number }> }>(res, `usage of ${flag}`);
  return Object.fromEntries(body.values.map((v) => [v.value, v.count]));
}

let server: EnsignProcess | undefined;

test.serial('every evaluation on the server and on both evaluators is counted once in the server’s analytics', async (t) => {
  const since = Date.now();
  server = await start('server');
  const api = jsonClient(server.baseUrl);
  const [ev1, ev2] = await Promise.all([start('evaluator'), start('evaluator')]);
  const shop = await seedShop(api, 'usage');
  const evaluators = [jsonClient(ev1.baseUrl), jsonClient(ev2.baseUrl)] as const;
  for (const ev of evaluators) t.true(await holds(ev, shop.ns), 'the evaluator holds the namespace');

  const made: Made = {};
  await evaluate(t, evaluators[0], shop.ns, 7, made);
  await evaluate(t, evaluators[1], shop.ns, 11, made);
  await evaluate(t, api, shop.ns, 5, made);
  const expected = { color: 23, 'new-ui': 23 };
  t.deepEqual({ color: total(made.color), 'new-ui': total(made['new-ui']) }, expected);
  t.true(Object.keys(made.color ?? {}).length === 2 && Object.keys(made['new-ui'] ?? {}).length === 2, 'both values of each flag were evaluated');

  t.deepEqual(await settledSums(api, shop.ns, made, since), expected);
  t.deepEqual(await usageSplit(api, shop.ns, 'color', since), made.color, 'the variants served, as counted');
  t.deepEqual(await usageSplit(api, shop.ns, 'new-ui', since), made['new-ui'], 'true and false, as counted');
  // Each process ships its batches in order, a batch sent again before the next: once later
  // evaluations everywhere are counted, an earlier batch stored twice would be counted too.
  await evaluate(t, evaluators[0], shop.ns, 1, made);
  await evaluate(t, evaluators[1], shop.ns, 1, made);
  await evaluate(t, api, shop.ns, 1, made);
  t.deepEqual(await settledSums(api, shop.ns, made, since), { color: 26, 'new-ui': 26 }, 'no batch is stored twice');
});

test.serial('an evaluator stopped right after evaluating ships what it counted before it exits', async (t) => {
  const since = Date.now();
  server ??= await start('server');
  const api = jsonClient(server.baseUrl);
  const shop = await seedShop(api, 'usage-stop');
  // A period far longer than the test: only the flush on stop can ship these counts.
  const ev = await start('evaluator', { ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '1h' });
  const evApi = jsonClient(ev.baseUrl);
  t.true(await holds(evApi, shop.ns));
  const made: Made = {};
  await evaluate(t, evApi, shop.ns, 9, made);
  t.is(await ev.stop('SIGTERM'), 0);
  t.deepEqual(await settledSums(api, shop.ns, made, since), { color: 9, 'new-ui': 9 });
});
