import type { CommittedChange } from '@ensign/store';
import { TcpProxy } from '@ensign/testkit';
/** The Redis backend against the Redis on 127.0.0.1:6379, each test under its own key prefix. */
import test from 'ava';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { NAMESPACES_SCOPE, namespaceScope } from '../src/cache/cache-scopes.js';
import { openReadCache, type OpenedReadCache } from '../src/index.js';
import { closedPort, counterValue, countingLoader, dropRedisKeys, eventually, gatedLoader, randomPrefix, REDIS_URL } from './cache-helpers.js';
import { capturingLogger } from './snapshot-fakes.js';
import type { LogLine } from './harness.js';

interface Opened extends OpenedReadCache {
  registry: Registry;
  lines: LogLine[];
  count(kind: 'hit' | 'miss' | 'error'): Promise<number>;
}

const prefixes: string[] = [];
const opened: Opened[] = [];
test.after.always(async () => {
  await Promise.all(opened.map((o) => o.close()));
  await Promise.all(prefixes.map(dropRedisKeys));
});

function open(options: { prefix: string; url?: string; ttlMs?: number }): Opened {
  const registry = new Registry();
  const { logger, lines } = capturingLogger();
  const cache = openReadCache({
    backend: 'redis',
    ttlMs: options.ttlMs ?? 600_000,
    maxEntries: 100,
    redisUrl: options.url ?? REDIS_URL,
    prefix: options.prefix,
    logger,
    metrics: registry,
  });
  const result = { ...cache, registry, lines, count: (kind: 'hit' | 'miss' | 'error') => counterValue(registry, `flipt_cache_${kind}_total`, 'redis') };
  opened.push(result);
  return result;
}

function newPrefix(): string {
  const prefix = randomPrefix();
  prefixes.push(prefix);
  return prefix;
}

const change = (namespaceKey: string): CommittedChange => ({
  record: { namespaceKey, revision: 2, resource: 'flag', key: 'f', action: 'updated', at: '2026-01-01T00:00:00.000Z' },
  effect: { kind: 'none' },
  durationMs: 1,
});
const warnings = (lines: LogLine[]) => lines.filter((line) => line.level === 40);

test('a second read is a hit, equal to what was loaded', async (t) => {
  const { cache, count } = open({ prefix: newPrefix() });
  const flag = { key: 'color', enabled: true, variants: [{ key: 'blue', attachment: '{"hex":"#00f"}' }], metadata: {} };
  const loader = countingLoader(() => structuredClone(flag));
  t.deepEqual(await cache.getOrLoad('ns:default', 'flag:color', loader.load), flag);
  t.deepEqual(await cache.getOrLoad('ns:default', 'flag:color', loader.load), flag);
  t.is(loader.calls(), 1);
  t.is(await count('miss'), 1);
  t.is(await count('hit'), 1);
});

test('a write through one control plane is seen by a read through another at once', async (t) => {
  const prefix = newPrefix();
  const one = open({ prefix });
  const other = open({ prefix });
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  const namespaces = countingLoader(() => ({ namespaces: version }));
  await other.cache.getOrLoad(namespaceScope('shop'), 'flag:color', loader.load);
  await other.cache.getOrLoad(NAMESPACES_SCOPE, 'list', namespaces.load);
  t.deepEqual(await one.cache.getOrLoad(namespaceScope('shop'), 'flag:color', loader.load), { version: 1 }, 'the entry is shared');
  t.is(loader.calls(), 1);

  version = 2;
  one.invalidator.notify(change('shop'));
  await one.invalidator.settled();
  t.deepEqual(await other.cache.getOrLoad(namespaceScope('shop'), 'flag:color', loader.load), { version: 2 });
  t.deepEqual(await other.cache.getOrLoad(NAMESPACES_SCOPE, 'list', namespaces.load), { namespaces: 2 }, 'the namespaces are read again too');
  t.is(loader.calls(), 2);
});

/** The remaining time to live (ms) of every key under the prefix that has one. */
async function expiringKeys(prefix: string): Promise<number[]> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
    return ttls.filter((ttl) => ttl >= 0);
  } finally {
    redis.disconnect();
  }
}

test('an entry expires after the TTL', async (t) => {
  const prefix = newPrefix();
  const ttlMs = 500;
  const { cache } = open({ prefix, ttlMs });
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  t.deepEqual(await cache.getOrLoad('s', 'k', loader.load), { version: 1 });
  const [remaining, ...others] = await expiringKeys(prefix);
  t.is(others.length, 0);
  t.true(remaining !== undefined && remaining > 0 && remaining <= ttlMs, `the loaded entry is stored to expire after the TTL (${remaining} ms left)`);
  version = 2;
  // Nothing invalidates the entry: only its expiry can make the cache load again.
  t.true(await eventually(async () => (await cache.getOrLoad('s', 'k', loader.load)).version === 2));
  t.is(loader.calls(), 2);
});

test('a load that began before an invalidation is returned but stored nowhere', async (t) => {
  const prefix = newPrefix();
  const one = open({ prefix });
  const other = open({ prefix });
  const old = gatedLoader({ version: 1 });
  const reading = one.cache.getOrLoad('s', 'k', old.load);
  await old.started;
  await other.cache.invalidate('s');
  old.release();
  t.deepEqual(await reading, { version: 1 });
  const fresh = countingLoader(() => ({ version: 2 }));
  t.deepEqual(await one.cache.getOrLoad('s', 'k', fresh.load), { version: 2 });
  t.deepEqual(await other.cache.getOrLoad('s', 'k', fresh.load), { version: 2 });
  t.is(fresh.calls(), 1, 'the second read was a hit on what the first stored');
});

test('a failed load is passed on and not cached', async (t) => {
  const { cache } = open({ prefix: newPrefix() });
  await t.throwsAsync(cache.getOrLoad('s', 'k', async () => Promise.reject(new Error('flag "default/k" not found'))), { message: 'flag "default/k" not found' });
  t.deepEqual(await cache.getOrLoad('s', 'k', async () => ({ key: 'k' })), { key: 'k' });
});

test('with Redis unreachable, reads load from the store, errors are counted and one warning is logged', async (t) => {
  const { cache, invalidator, count, lines } = open({ prefix: newPrefix(), url: `redis://127.0.0.1:${await closedPort()}` });
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  for (let i = 0; i < 5; i++) t.deepEqual(await cache.getOrLoad('s', 'k', loader.load), { version: 1 });
  version = 2;
  invalidator.notify(change('s'));
  await invalidator.settled();
  t.deepEqual(await cache.getOrLoad('s', 'k', loader.load), { version: 2 });
  t.is(loader.calls(), 6, 'every read went to the store');
  t.true((await count('error')) >= 6);
  t.is(await count('hit'), 0);
  t.is(warnings(lines).length, 1, JSON.stringify(lines));
  t.regex(warnings(lines)[0]?.msg ?? '', /Redis is unavailable/);
});

test('after an outage in which a write was not invalidated, nothing cached before it is served anywhere', async (t) => {
  const prefix = newPrefix();
  const proxy = new TcpProxy(6379);
  await proxy.open();
  t.teardown(() => proxy.close());
  const writer = open({ prefix, url: proxy.url('redis') });
  const other = open({ prefix });
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  await writer.cache.getOrLoad('ns:shop', 'k', loader.load);
  t.deepEqual(await writer.cache.getOrLoad('ns:shop', 'k', loader.load), { version: 1 });
  t.is(loader.calls(), 1);

  await proxy.close();
  version = 2;
  writer.invalidator.notify(change('shop'));
  await writer.invalidator.settled();
  t.deepEqual(await writer.cache.getOrLoad('ns:shop', 'k', loader.load), { version: 2 }, 'during the outage the store answers');

  await proxy.open();
  // Once reconnected, the writer serves from Redis again (a hit), having hidden every older entry.
  t.true(
    await eventually(async () => {
      const hits = await writer.count('hit');
      await writer.cache.getOrLoad('ns:shop', 'k', loader.load);
      return (await writer.count('hit')) > hits;
    }),
  );
  t.deepEqual(await writer.cache.getOrLoad('ns:shop', 'k', loader.load), { version: 2 });
  t.deepEqual(await other.cache.getOrLoad('ns:shop', 'k', loader.load), { version: 2 }, 'the other control plane does not get the entry from before the outage');
  t.is(warnings(writer.lines).length, 1);
  t.true(writer.lines.some((line) => line.level === 30 && /Redis is available again/.test(line.msg)));
});
