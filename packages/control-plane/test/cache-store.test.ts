/** The management API over a cached store: answers equal the uncached ones, and every write is seen by the next read. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { pino } from 'pino';
import { cacheCounters } from '../src/cache/cache-counters.js';
import { CacheInvalidator } from '../src/cache/cache-invalidator.js';
import { MemoryReadCache } from '../src/cache/memory-read-cache.js';
import type { ReadCache } from '../src/cache/read-cache.js';
import { createApp, createMetricsRegistry, withReadCache } from '../src/index.js';
import { countersFor } from './cache-helpers.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
const metrics = countersFor('memory');
const cache = new MemoryReadCache({ ttlMs: 600_000, maxEntries: 1000, counters: metrics.counters });

test.before(async () => {
  h = await startHarness({ wrapStore: (store) => withReadCache(store, cache), listen: () => new CacheInvalidator(cache).notify });
});
test.after.always(() => h?.close());

/** Reads `path` twice and checks the second answer (from the cache) is the first one, and a hit. */
async function readTwice(path: string): Promise<{ first: unknown; second: unknown; hit: boolean }> {
  const first = await h.call('GET', path);
  const hits = await metrics.count('hit');
  const second = await h.call('GET', path);
  return { first: [first.status, first.json], second: [second.status, second.json], hit: (await metrics.count('hit')) > hits };
}

test.serial('cached answers equal the store\'s for every cached read', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'same', name: 'Same' } });
  const base = '/api/v1/namespaces/same';
  const flag = (await h.call('POST', `${base}/flags`, { json: { key: 'color', name: 'Color', metadata: { team: 'web' } } })).json;
  const variant = (await h.call('POST', `${base}/flags/color/variants`, { json: { key: 'blue', attachment: '{"hex":"#00f"}' } })).json;
  await h.call('POST', `${base}/segments`, { json: { key: 'beta', name: 'Beta' } });
  await h.call('POST', `${base}/segments/beta/constraints`, { json: { type: 1, property: 'plan', operator: 'eq', value: 'pro' } });
  const rule = (await h.call('POST', `${base}/flags/color/rules`, { json: { segmentKey: 'beta', rank: 1 } })).json;
  await h.call('POST', `${base}/flags/color/rules/${rule.id}/distributions`, { json: { variantId: variant.id, rollout: 100 } });
  await h.call('POST', `${base}/flags`, { json: { key: 'toggle', name: 'Toggle', type: 'BOOLEAN_FLAG_TYPE' } });
  const rollout = (await h.call('POST', `${base}/flags/toggle/rollouts`, { json: { rank: 1, threshold: { percentage: 25, value: true } } })).json;
  t.truthy(flag.key);

  const page = { limit: 0, offset: 0 };
  const direct: Array<[string, unknown]> = [
    ['/api/v1/namespaces', { namespaces: (await h.store.namespaces.list(page)).items }],
    [base, await h.store.namespaces.get('same')],
    [`${base}/flags/color`, await h.store.flags.get('same', 'color')],
    [`${base}/segments/beta`, await h.store.segments.get('same', 'beta')],
    [`${base}/flags/color/rules/${rule.id}`, await h.store.rules.get('same', 'color', rule.id)],
    [`${base}/flags/toggle/rollouts/${rollout.id}`, await h.store.rollouts.get('same', 'toggle', rollout.id)],
  ];
  for (const [path, value] of direct) {
    const { first, second, hit } = await readTwice(path);
    t.true(hit, `${path} is answered from the cache`);
    t.deepEqual(second, first, path);
    t.like((first as [number, unknown])[1], JSON.parse(JSON.stringify(value)), path);
  }
  for (const path of [`${base}/flags`, `${base}/segments`, `${base}/flags/color/rules`, `${base}/flags/toggle/rollouts`, `${base}/flags?limit=1&offset=1`]) {
    const { first, second, hit } = await readTwice(path);
    t.true(hit, `${path} is answered from the cache`);
    t.deepEqual(second, first, path);
    t.is((first as [number, unknown])[0], 200, path);
  }
});

test.serial('every kind of write is seen by the next read', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'fresh', name: 'Fresh' } });
  const base = '/api/v1/namespaces/fresh';
  const get = async (path: string) => (await h.call('GET', path)).json;

  await h.call('POST', `${base}/flags`, { json: { key: 'color', name: 'Color' } });
  t.is((await get(`${base}/flags/color`)).name, 'Color');
  await h.call('PUT', `${base}/flags/color`, { json: { name: 'Colour', enabled: true } });
  t.like(await get(`${base}/flags/color`), { name: 'Colour', enabled: true }, 'flag update');

  const variant = (await h.call('POST', `${base}/flags/color/variants`, { json: { key: 'blue' } })).json;
  t.deepEqual((await get(`${base}/flags/color`)).variants.map((v: { key: string }) => v.key), ['blue'], 'variant create');

  await h.call('POST', `${base}/segments`, { json: { key: 'beta', name: 'Beta' } });
  t.deepEqual((await get(`${base}/segments/beta`)).constraints, []);
  await h.call('POST', `${base}/segments/beta/constraints`, { json: { type: 1, property: 'plan', operator: 'eq', value: 'pro' } });
  t.is((await get(`${base}/segments/beta`)).constraints.length, 1, 'constraint create');

  const r1 = (await h.call('POST', `${base}/flags/color/rules`, { json: { segmentKey: 'beta', rank: 1 } })).json.id as string;
  const r2 = (await h.call('POST', `${base}/flags/color/rules`, { json: { segmentKey: 'beta', rank: 2 } })).json.id as string;
  t.deepEqual((await get(`${base}/flags/color/rules`)).rules.map((r: { id: string }) => r.id), [r1, r2]);
  await h.call('PUT', `${base}/flags/color/rules/order`, { json: { ruleIds: [r2, r1] } });
  t.deepEqual((await get(`${base}/flags/color/rules`)).rules.map((r: { id: string }) => r.id), [r2, r1], 'rule order');
  t.deepEqual((await get(`${base}/flags/color/rules/${r1}`)).distributions, []);
  await h.call('POST', `${base}/flags/color/rules/${r1}/distributions`, { json: { variantId: variant.id, rollout: 100 } });
  t.is((await get(`${base}/flags/color/rules/${r1}`)).distributions.length, 1, 'distribution create');

  await h.call('POST', `${base}/flags`, { json: { key: 'toggle', name: 'Toggle', type: 'BOOLEAN_FLAG_TYPE' } });
  t.deepEqual((await get(`${base}/flags/toggle/rollouts`)).rules, []);
  await h.call('POST', `${base}/flags/toggle/rollouts`, { json: { rank: 1, threshold: { percentage: 25, value: true } } });
  t.is((await get(`${base}/flags/toggle/rollouts`)).rules.length, 1, 'rollout create');

  await h.call('DELETE', `${base}/flags/color`);
  t.is((await h.call('GET', `${base}/flags/color`)).status, 404, 'flag delete');

  t.true((await get('/api/v1/namespaces')).namespaces.some((n: { key: string }) => n.key === 'fresh'));
  await h.call('PUT', base, { json: { name: 'Renamed' } });
  t.is((await get(base)).name, 'Renamed', 'namespace update');
  await h.call('DELETE', `${base}?force=true`);
  t.is((await h.call('GET', base)).status, 404, 'namespace delete');
  t.false((await get('/api/v1/namespaces')).namespaces.some((n: { key: string }) => n.key === 'fresh'));
});

test.serial('a 404 is not cached', async (t) => {
  t.is((await h.call('GET', '/api/v1/flags/later')).status, 404);
  t.is((await h.call('GET', '/api/v1/flags/later')).status, 404);
  await h.call('POST', '/api/v1/flags', { json: { key: 'later', name: 'Later' } });
  t.is((await h.call('GET', '/api/v1/flags/later')).status, 200);
});

test('a write answers only once its invalidation is done', async (t) => {
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = new MemoryReadCache({ ttlMs: 600_000, maxEntries: 100 });
  // Invalidations wait for the gate: the write must wait with them.
  const held: ReadCache = { name: 'held', getOrLoad: (s, k, l) => inner.getOrLoad(s, k, l), invalidate: async (s) => gate.then(() => inner.invalidate(s)), close: () => inner.close() };
  const gated = await startHarness({ wrapStore: (store) => withReadCache(store, held), listen: () => new CacheInvalidator(held).notify });
  t.teardown(() => gated.close());
  let answered = false;
  const write = gated.call('POST', '/api/v1/flags', { json: { key: 'waits', name: 'Waits' } }).then((res) => {
    answered = true;
    return res;
  });
  for (let i = 0; i < 200 && (await gated.call('GET', '/api/v1/flags/waits')).status !== 200; i++) await new Promise((r) => setTimeout(r, 10));
  t.false(answered, 'committed, but not answered while the invalidation is held');
  release();
  t.is((await write).status, 200);
});

test('/metrics serves the cache counters and the process metrics without credentials', async (t) => {
  const registry = createMetricsRegistry();
  const counted = new MemoryReadCache({ ttlMs: 600_000, maxEntries: 100, counters: cacheCounters(registry, 'memory') });
  const app = createApp({ store: withReadCache(h.store, counted), logger: pino({ level: 'silent' }), metrics: registry });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await fetch(`${base}/api/v1/namespaces/default`).then((r) => r.text());
  await fetch(`${base}/api/v1/namespaces/default`).then((r) => r.text());
  const res = await fetch(`${base}/metrics`);
  const text = await res.text();
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain/);
  t.regex(text, /^flipt_cache_hit_total\{cache="memory"\} 1$/m);
  t.regex(text, /^flipt_cache_miss_total\{cache="memory"\} 1$/m);
  t.regex(text, /^process_cpu_user_seconds_total /m);
});
