/** Shared pieces of the read-cache tests: loaders that count and wait, counters. */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { cacheCounters } from '../src/cache/cache-counters.js';
import type { CacheCounters } from '../src/cache/read-cache.js';

/** A loader that answers `value()` and counts its calls. */
export function countingLoader<T>(value: () => T): { load: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    load: async () => {
      calls += 1;
      return value();
    },
    calls: () => calls,
  };
}

/** A loader held until `release`; `started` resolves once it has been called. */
export function gatedLoader<T>(value: T): { load: () => Promise<T>; started: Promise<void>; release: () => void } {
  let release = (): void => {};
  let start = (): void => {};
  const started = new Promise<void>((resolve) => (start = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    load: async () => {
      start();
      await gate;
      return value;
    },
    started,
    release,
  };
}

/** Counters on a fresh registry, and how to read them back. */
export function countersFor(cache: string): { counters: CacheCounters; registry: Registry; count: (kind: 'hit' | 'miss' | 'error') => Promise<number> } {
  const registry = new Registry();
  return {
    counters: cacheCounters(registry, cache),
    registry,
    count: (kind) => counterValue(registry, `flipt_cache_${kind}_total`, cache),
  };
}

/** The value of a counter of `registry` for `cache="<cache>"` (0 when never counted). */
export async function counterValue(registry: Registry, name: string, cache: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  return values.find((v) => v.labels.cache === cache)?.value ?? 0;
}

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A key prefix no other test run uses. */
export const randomPrefix = (): string => `ensign-t-${randomBytes(6).toString('hex')}`;

/** Deletes every key under `prefix` on the shared Redis. */
export async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A port nothing listens on right now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

export { eventually } from '@ensign/testkit';
