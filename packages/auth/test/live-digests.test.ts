import test from 'ava';
import { digestOf, issueToken, LiveDigests, type DigestSet } from '../src/index.js';
import { MemoryAuthenticationStore } from './helpers/memory-authentication-store.js';
import { eventually } from '@ensign/testkit';

const quiet = { warn: () => undefined };

test('refresh loads the live digests, and a token created just before a refresh is in the set after it', async (t) => {
  const store = new MemoryAuthenticationStore();
  const published: Array<{ size: number; loadedAtMs: number }> = [];
  const live = new LiveDigests({ source: store, logger: quiet, intervalMs: 0, publish: async (set, loadedAtMs) => void published.push({ size: set.size, loadedAtMs }) });
  t.is(live.current().size, 0);
  const a = await issueToken(store, { name: 'a', description: '', namespaceKey: 'team' });
  await live.refresh();
  t.deepEqual(live.current().get(digestOf(a.clientToken)), { method: 'METHOD_TOKEN', namespace: 'team' });
  await live.published();
  t.is(published.length, 1);

  // Changes during a load are picked up by a second load that the late callers wait for.
  const first = live.refresh();
  const b = await issueToken(store, { name: 'b', description: '' });
  await Promise.all([first, live.refresh()]);
  t.true(live.current().has(digestOf(b.clientToken)));
  await store.delete(a.authentication.id);
  await live.refresh();
  t.false(live.current().has(digestOf(a.clientToken)));
});

test('expired authentications are left out, and a set loaded elsewhere is adopted only when newer', async (t) => {
  const store = new MemoryAuthenticationStore();
  let now = 1_000_000;
  await issueToken(store, { name: 'old', description: '', expiresAt: new Date(now - 1) });
  const live = new LiveDigests({ source: store, logger: quiet, intervalMs: 0, now: () => now });
  await live.refresh();
  t.is(live.current().size, 0);
  const foreign: DigestSet = new Map([['d', { method: 'METHOD_TOKEN' }]]);
  live.adopt(foreign, now - 5);
  t.is(live.current().size, 0, 'older than our own load');
  live.adopt(foreign, now + 5);
  t.is(live.current(), foreign);
  now += 1;
  await live.refresh();
  t.is(live.current(), foreign, 'our load started before the adopted one');
});

test('a failed publish is logged and keeps the loaded set', async (t) => {
  const store = new MemoryAuthenticationStore();
  await issueToken(store, { name: 'a', description: '' });
  const warnings: string[] = [];
  const live = new LiveDigests({
    source: store,
    logger: { warn: (_o, msg) => void warnings.push(msg) },
    intervalMs: 0,
    publish: () => Promise.reject(new Error('NATS down')),
  });
  await live.refresh();
  t.is(live.current().size, 1);
  await live.published();
  t.deepEqual(warnings, ['publishing the live token digests failed']);
});

test('a publish that hangs (the bus is down) holds up no refresh, and only the latest set is published next', async (t) => {
  const store = new MemoryAuthenticationStore();
  let release!: () => void;
  const calls: number[] = [];
  const live = new LiveDigests({
    source: store,
    logger: quiet,
    intervalMs: 0,
    publish: (set) => {
      calls.push(set.size);
      return calls.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
  });
  await live.refresh();
  await issueToken(store, { name: 'a', description: '' });
  await live.refresh();
  await issueToken(store, { name: 'b', description: '' });
  await live.refresh();
  t.is(live.current().size, 2, 'the set is current although the first publish still hangs');
  release();
  await live.published();
  t.deepEqual(calls, [0, 2], 'the intermediate set is skipped');
});

test('a change seen in the source\'s fingerprint reloads the set without waiting for the periodic reload', async (t) => {
  const store = new MemoryAuthenticationStore();
  // Another server's writes show only in what the fingerprint reads.
  const source = { listLiveDigests: (now: Date) => store.listLiveDigests(now), digestsFingerprint: async () => String(store.rows.size) };
  const live = new LiveDigests({ source, logger: quiet, intervalMs: 0, checkIntervalMs: 10 });
  await live.refresh();
  live.start();
  t.teardown(() => live.stop());
  const a = await issueToken(store, { name: 'elsewhere', description: '' });
  t.true(await eventually(() => live.current().has(digestOf(a.clientToken))));
  await store.delete(a.authentication.id);
  t.true(await eventually(() => !live.current().has(digestOf(a.clientToken))));
});

test('a fingerprint that cannot be read is logged once while it lasts', async (t) => {
  const store = new MemoryAuthenticationStore();
  const warnings: string[] = [];
  let reads = 0;
  const source = { listLiveDigests: (now: Date) => store.listLiveDigests(now), digestsFingerprint: () => (++reads, Promise.reject(new Error('database down'))) };
  const live = new LiveDigests({ source, logger: { warn: (_o, msg) => void warnings.push(msg) }, intervalMs: 0, checkIntervalMs: 5 });
  live.start();
  t.teardown(() => live.stop());
  t.true(await eventually(() => reads >= 4));
  t.deepEqual(warnings, ['checking the authentications for changes failed']);
});
