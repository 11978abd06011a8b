import type { CommittedChange } from '@ensign/store';
import { TcpProxy } from '@ensign/testkit';
/** The memory backend kept fresh across control planes by invalidation messages over Redis pub/sub. */
import test from 'ava';
import { Registry } from 'prom-client';
import { namespaceScope } from '../src/cache/cache-scopes.js';
import { openReadCache, type OpenedReadCache } from '../src/index.js';
import { closedPort, counterValue, countingLoader, dropRedisKeys, eventually, randomPrefix, REDIS_URL } from './cache-helpers.js';
import { capturingLogger } from './snapshot-fakes.js';
import type { LogLine } from './harness.js';

interface Opened extends OpenedReadCache {
  lines: LogLine[];
  hits(): Promise<number>;
}

const prefixes: string[] = [];
const opened: Opened[] = [];
test.after.always(async () => {
  await Promise.all(opened.map((o) => o.close()));
  await Promise.all(prefixes.map(dropRedisKeys));
});

function open(prefix: string, url = REDIS_URL): Opened {
  const registry = new Registry();
  const { logger, lines } = capturingLogger();
  const cache = openReadCache({ backend: 'memory', ttlMs: 600_000, maxEntries: 100, redisUrl: url, prefix, logger, metrics: registry });
  const result = { ...cache, lines, hits: () => counterValue(registry, 'flipt_cache_hit_total', 'memory') };
  opened.push(result);
  return result;
}

function newPrefix(): string {
  const prefix = randomPrefix();
  prefixes.push(prefix);
  return prefix;
}

/** Resolves whether the cache serves `key` from memory (a hit) within the polling bound. */
const servesHits = (o: Opened, scope: string, key: string, load: () => Promise<unknown>) =>
  eventually(async () => {
    const before = await o.hits();
    await o.cache.getOrLoad(scope, key, load);
    return (await o.hits()) > before;
  });

const change = (namespaceKey: string): CommittedChange => ({
  record: { namespaceKey, revision: 2, resource: 'flag', key: 'f', action: 'updated', at: '2026-01-01T00:00:00.000Z' },
  effect: { kind: 'none' },
  durationMs: 1,
});

test('a write through one control plane drops the entries the other holds in memory', async (t) => {
  const prefix = newPrefix();
  const one = open(prefix);
  const other = open(prefix);
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  const scope = namespaceScope('shop');
  t.true(await servesHits(other, scope, 'flag:color', loader.load), 'the other control plane caches once subscribed');
  t.true(await servesHits(one, scope, 'flag:color', loader.load));

  version = 2;
  one.invalidator.notify(change('shop'));
  await one.invalidator.settled();
  t.deepEqual(await one.cache.getOrLoad(scope, 'flag:color', loader.load), { version: 2 }, 'the writer drops its own at once');
  t.true(await eventually(async () => (await other.cache.getOrLoad(scope, 'flag:color', loader.load)).version === 2), 'the message reaches the other');
});

test('while the channel is lost, reads go to the store; once back, the cache starts empty', async (t) => {
  const prefix = newPrefix();
  const proxy = new TcpProxy(6379);
  await proxy.open();
  t.teardown(() => proxy.close());
  const writer = open(prefix);
  const listener = open(prefix, proxy.url('redis'));
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  const scope = namespaceScope('shop');
  t.true(await servesHits(listener, scope, 'k', loader.load));

  await proxy.close();
  version = 2;
  writer.invalidator.notify(change('shop'));
  await writer.invalidator.settled();
  t.true(await eventually(async () => (await listener.cache.getOrLoad(scope, 'k', loader.load)).version === 2), 'the missed message does not leave the old entry served');

  await proxy.open();
  t.true(await servesHits(listener, scope, 'k', loader.load), 'back to serving from memory');
  t.deepEqual(await listener.cache.getOrLoad(scope, 'k', loader.load), { version: 2 });
  t.is(listener.lines.filter((line) => line.level === 40).length, 1, 'one warning for the outage');
});

test('with Redis unreachable, a memory cache with messages reads from the store and nothing fails', async (t) => {
  const o = open(newPrefix(), `redis://127.0.0.1:${await closedPort()}`);
  let version = 1;
  const loader = countingLoader(() => ({ version }));
  t.deepEqual(await o.cache.getOrLoad('s', 'k', loader.load), { version: 1 });
  o.invalidator.notify(change('s'));
  await o.invalidator.settled();
  version = 2;
  t.deepEqual(await o.cache.getOrLoad('s', 'k', loader.load), { version: 2 });
  t.is(loader.calls(), 2);
  t.true(await eventually(() => o.lines.some((line) => line.level === 40)));
  t.is(o.lines.filter((line) => line.level === 40).length, 1);
});
