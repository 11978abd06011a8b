/**
 * Flags that follow the clock, end to end: an `ensign evaluator` cut off from NATS flips a
 * scheduled flag, opens a rule's window and steps a ramp on its own clock, on time; the server
 * records each step in the history as made by the schedule; a server that was down at a boundary
 * takes what it missed when it starts again, marked as taken late.
 */
import test from 'ava';
import { type EnsignProcess, freePort, jsonClient, startEnsign, TcpProxy } from '@ensign/testkit';
import { ok } from '../helpers/api.js';
import { delay, NATS_PORT, testBucket } from '../helpers/scale-out.js';

const nats = testBucket();
const processes: EnsignProcess[] = [];
const proxies: TcpProxy[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await nats.drop();
});

async function start(command: 'server' | 'evaluator', options: { natsUrl?: string; cwd?: string } = {}): Promise<EnsignProcess> {
  const p = await startEnsign({ command, env: nats.env(options.natsUrl), ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  processes.push(p);
  return p;
}

/** Polls `read` (bounded) until `done` holds of what it read; resolves that value and when it was read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<{ value: T; at: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return { value, at: Date.now() };
    await delay(20);
  }
}

test.serial('an evaluator cut off from NATS flips a schedule, a window and a ramp at the boundary, on its own clock; the server records each step', async (t) => {
  const server = await start('server');
  const api = jsonClient(server.baseUrl);
  const proxy = new TcpProxy(NATS_PORT, await freePort());
  proxies.push(proxy);
  await proxy.open();
  const evaluator = await start('evaluator', { natsUrl: proxy.url('nats') });
  const ev = jsonClient(evaluator.baseUrl);

  const ns = 'clock';
  ok(await api.post('/api/v1/namespaces', { key: ns, name: 'Clock' }));
  const base = `/api/v1/namespaces/${ns}`;
  // Far enough ahead for the evaluator to hold the namespace before the first boundary, on a loaded machine too.
  const at = Date.now() + 8_000;
  const boundary = new Date(at).toISOString();
  ok(await api.post(`${base}/flags`, { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  ok(await api.post(`${base}/flags/launch/schedules`, { at: boundary, enabled: true }));
  ok(await api.post(`${base}/segments`, { key: 'all', name: 'All', matchType: 'ALL_MATCH_TYPE' }));
  ok(await api.post(`${base}/flags`, { key: 'banner', name: 'Banner', enabled: true }));
  const variant = ok(await api.post(`${base}/flags/banner/variants`, { key: 'new', name: 'New' }));
  const rule = ok(await api.post(`${base}/flags/banner/rules`, { segmentKey: 'all', rank: 1, validFrom: boundary }));
  ok(await api.post(`${base}/flags/banner/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 100 }));
  ok(await api.post(`${base}/flags`, { key: 'ramped', name: 'Ramped', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  ok(await api.post(`${base}/flags/ramped/rollouts`, { rank: 1, threshold: { percentage: 0, value: true, ramp: [{ at: boundary, percentage: 100 }] } }));

  const launch = () => ev.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'launch', entityId: 'u1' });
  const banner = () => ev.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'banner', entityId: 'u1' });
  const ramped = () => ev.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'ramped', entityId: 'u1' });
  const held = await until(() => ramped(), (r) => r.status === 200);
  t.is(held.value.status, 200, 'the evaluator holds the namespace');
  t.true(Date.now() < at, 'the test reached the boundary late: the machine is too slow for this test');
  t.is((await launch()).body.enabled, false);
  t.is((await banner()).body.match, false);
  t.is((await ramped()).body.enabled, false);
  const etagBefore = (await ev.get(`/internal/v1/evaluation/snapshot/namespace/${ns}`)).headers.get('etag');

  await proxy.close();
  const flipped = await until(() => launch(), (r) => r.body?.enabled === true);
  t.true(flipped.value.body.enabled, 'the scheduled flag flipped while the evaluator was cut off from NATS');
  t.true(flipped.at >= at, 'not before its time');
  t.log(`flipped ${flipped.at - at} ms after the boundary`);
  t.like((await banner()).body, { match: true, variantKey: 'new' }, 'the window opened');
  t.true((await ramped()).body.enabled, 'the ramp stepped to 100 %');
  const after = await ev.get(`/internal/v1/evaluation/snapshot/namespace/${ns}`);
  t.not(after.headers.get('etag'), etagBefore, "Flipt's client snapshot moved at the boundary");
  t.true((after.body as { flags: Array<{ key: string; enabled: boolean }> }).flags.find((f) => f.key === 'launch')!.enabled);

  const history = await until(
    async () => ok(await api.get(`${base}/audit/events?action=stepped`)) as { events: Array<{ key: string; actor?: { method: string; name?: string } }> },
    (h) => h.events.length >= 3,
  );
  t.deepEqual(history.value.events.map((e) => e.key).sort(), ['banner', 'launch', 'ramped']);
  t.true(history.value.events.every((e) => e.actor?.method === 'METHOD_SCHEDULE'));
  t.true(ok(await api.get(`${base}/flags/launch`)).enabled, 'the server stored the scheduled state');
  t.like(ok(await api.get(`${base}/flags/launch/schedules`)).schedules[0], { status: 'applied' });
});

test.serial('a server down at a boundary takes the missed step when it starts again, marked as taken late', async (t) => {
  const server = await start('server');
  const api = jsonClient(server.baseUrl);
  const ns = 'missed';
  ok(await api.post('/api/v1/namespaces', { key: ns, name: 'Missed' }));
  const base = `/api/v1/namespaces/${ns}`;
  ok(await api.post(`${base}/flags`, { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  const at = Date.now() + 1_500;
  ok(await api.post(`${base}/flags/launch/schedules`, { at: new Date(at).toISOString(), enabled: true }));
  t.is(await server.stop('SIGTERM'), 0);
  await delay(Math.max(0, at - Date.now()) + 6_000);

  const again = await start('server', { cwd: server.cwd });
  const api2 = jsonClient(again.baseUrl);
  t.true(ok(await api2.get(`${base}/flags/launch`)).enabled, 'taken at start, before the server answered');
  const events = (ok(await api2.get(`${base}/audit/events?action=stepped`)) as { events: Array<{ after: { step: { missed?: boolean; lateByMs?: number } } }> }).events;
  t.is(events.length, 1);
  t.true(events[0]!.after.step.missed, 'recorded as missed');
  t.true(events[0]!.after.step.lateByMs! >= 5_000);
});
