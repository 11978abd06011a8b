/**
 * Deltas over core NATS beside the bucket: what a control plane publishes reaches followers at
 * once, even while the bucket takes no writes, and the follower's rules make the live copy and the
 * bucket's agree: a delta is taken once, only onto a version it covers, and the rest is left to
 * the bucket.
 */
import test from 'ava';
import { connect } from 'nats';
import { SnapshotFollower, SnapshotVersion, type VersionHolder } from '@ensign/snapshots';
import { TcpProxy } from '@ensign/testkit/tcp-proxy';
import { type BucketEntry, encodeEnvelope, namespaceKeyToDeltaKey, namespaceKeyToKvKey, openSnapshotBus, type SnapshotBus } from '../src/index.js';
import { type BusNames, connected, destroyNames, freshNames, fromBucket, NATS_URL, openTestBus } from './helpers/nats.js';
import { deltaOf, documentOf } from './helpers/snapshots.js';
import { until } from './helpers/wait.js';

const OPTIONS = { hash: 'murmur3' } as const;

/** Revisions 1 to 3 of a namespace with real checksums: flag-0 changed at 2, flag-1 removed at 3. */
function historyOf(namespaceKey: string): [SnapshotVersion, SnapshotVersion, SnapshotVersion] {
  const v1 = SnapshotVersion.build(namespaceKey, 1, documentOf(namespaceKey, 3).flags, OPTIONS);
  const v2 = v1.next(2, documentOf(namespaceKey, 1).flags, []);
  return [v1, v2, v2.next(3, [], ['flag-1'])];
}

/** Every namespace, as a control plane holds them; remembers what the follower announced. */
class MapHolder implements VersionHolder {
  readonly held = new Map<string, SnapshotVersion>();
  readonly announcements: string[] = [];
  peek = (key: string): SnapshotVersion | undefined => this.held.get(key);
  offer(version: SnapshotVersion): boolean {
    if ((this.held.get(version.namespaceKey)?.revision ?? -1) >= version.revision) return false;
    this.held.set(version.namespaceKey, version);
    return true;
  }
  drop = (key: string): void => void this.held.delete(key);
  wants = (): boolean => true;
  announce = (key: string, revision: number): void => void this.announcements.push(`${key}@${revision}`);
  revision = (key: string): number | undefined => this.held.get(key)?.revision;
}

/** Fresh names for one test, dropped after it. */
function ownNames(t: { teardown(fn: () => Promise<void>): void }): BusNames {
  const names = freshNames();
  t.teardown(() => destroyNames(names));
  return names;
}

/** Buses on the test's names, closed after it. */
function busesOf(t: { teardown(fn: () => Promise<void>): void }, names: BusNames, count: number): SnapshotBus[] {
  const buses = Array.from({ length: count }, () => openTestBus(names));
  t.teardown(async () => void (await Promise.all(buses.map((bus) => bus.close()))));
  return buses;
}

/** A follower of `bus` into a fresh holder, started and synced; its log lines are kept. */
async function followerOf(t: { teardown(fn: () => Promise<void>): void }, bus: SnapshotBus) {
  const holder = new MapHolder();
  const lines: string[] = [];
  const at = (level: string) => (_obj: object, msg: string) => void lines.push(`${level}: ${msg}`);
  const follower = new SnapshotFollower({ bucket: bus, holder, compile: OPTIONS, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } });
  let synced = false;
  await follower.start(() => (synced = true));
  t.teardown(() => follower.stop());
  await until(() => synced, 'the follower synced');
  return { holder, follower, lines };
}

/** A line per entry, e.g. `live delta a@3/1`. */
const describe = (entry: BucketEntry): string =>
  entry.kind === 'delete' ? `delete ${entry.namespaceKey}` : `${fromBucket(entry) ? 'bucket' : 'live'} ${entry.kind} ${entry.namespaceKey}@${entry.revision}${entry.kind === 'delta' ? `/${entry.baseRevision}` : ''}`;

/** Makes the bucket's stream take no writes (its subjects moved away) until the returned function is called, as while its leader is being elected. */
async function stallWrites(names: BusNames): Promise<() => Promise<void>> {
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  const stream = `KV_${names.bucket}`;
  const config = (await jsm.streams.info(stream)).config;
  await jsm.streams.update(stream, { ...config, subjects: [`$KV.${names.bucket}_stalled.>`] });
  return async () => {
    await jsm.streams.update(stream, config);
    await nc.close();
  };
}

test('a published delta reaches watchers on the live subject ahead of the bucket, then from the bucket', async (t) => {
  const names = ownNames(t);
  const [publisher, watcher] = busesOf(t, names, 2) as [SnapshotBus, SnapshotBus];
  const entries: BucketEntry[] = [];
  let synced = false;
  await watcher.watch((entry) => void entries.push(entry), () => (synced = true));
  await until(() => synced, 'initial sync');

  const delta = deltaOf('a', 1, 2);
  t.truthy(await publisher.publishDelta(delta));
  await until(() => entries.length === 2, 'both copies');
  t.deepEqual(entries.map(describe), ['live delta a@2/1', 'bucket delta a@2/1']);
  const live = entries[0];
  if (live?.kind !== 'delta') return t.fail();
  t.deepEqual(await live.read(), delta, 'read() decodes the live copy like the bucket’s');
});

test('publishLive sends a delta to watchers without writing the bucket; one too large for a message, or under format 1, is not sent', async (t) => {
  const names = ownNames(t);
  const [watcher] = busesOf(t, names, 1) as [SnapshotBus];
  const small = openTestBus(names, { maxInlineBytes: 4096 });
  const pinned = openTestBus(names, { envelopeVersion: 1 });
  t.teardown(async () => void (await Promise.all([small.close(), pinned.close()])));
  await connected(small, pinned);
  const entries: BucketEntry[] = [];
  let synced = false;
  await watcher.watch((entry) => void entries.push(entry), () => (synced = true));
  await until(() => synced, 'initial sync');

  t.is(await small.publishLive(deltaOf('b', 1, 2, 100)), undefined, 'over the inline limit: the bucket carries a hydration instead');
  t.is(await pinned.publishLive(deltaOf('b', 1, 3)), undefined, 'format 1 has no deltas');
  t.true(((await small.publishLive(deltaOf('b', 1, 4))) ?? 0) > 0);
  await until(() => entries.length > 0, 'the delta sent');
  // Live messages of one connection arrive in order: the unsent ones would have come first.
  t.deepEqual(entries.map(describe), ['live delta b@4/1']);
  const nc = await connect({ servers: NATS_URL });
  t.teardown(() => nc.close());
  t.is(await (await nc.jetstream().views.kv(names.bucket)).get(namespaceKeyToDeltaKey('b')), null, 'the bucket was not written');
});

test("a follower takes a delta once: the bucket's copy after the live one is skipped as stale", async (t) => {
  const names = ownNames(t);
  const [publisher, watcher] = busesOf(t, names, 2) as [SnapshotBus, SnapshotBus];
  const [v1, v2] = historyOf('once');
  await publisher.publishHydration(v1.snapshot);
  const { holder, follower, lines } = await followerOf(t, watcher);
  t.is(holder.revision('once'), 1);

  await publisher.publishDelta(v2.deltaFrom(1, ['flag-0']));
  await until(() => follower.counts.deltas + follower.counts.stale === 2, 'both copies taken');
  t.like(follower.counts, { deltas: 1, stale: 1, refused: 0, fetches: 0 });
  t.is(holder.peek('once')?.snapshot.checksum, v2.snapshot.checksum);
  t.deepEqual(lines, []);
});

test('a live delta the follower cannot apply (base not held, namespace not held) is ignored quietly, and the bucket brings the change', async (t) => {
  const names = ownNames(t);
  const [publisher, watcher] = busesOf(t, names, 2) as [SnapshotBus, SnapshotBus];
  const [g1, g2, g3] = historyOf('gap');
  const [p1, p2] = historyOf('probe');
  await publisher.publishHydration(g1.snapshot);
  await publisher.publishHydration(p1.snapshot);
  const { holder, follower, lines } = await followerOf(t, watcher);
  holder.announcements.length = 0;

  await publisher.publishLive(g3.deltaFrom(2, ['flag-1']));
  await publisher.publishLive(historyOf('elsewhere')[1].deltaFrom(1, ['flag-0']));
  // Live deltas are handed on in order, so once the probe's is held the two before it were handled.
  await publisher.publishLive(p2.deltaFrom(1, ['flag-0']));
  await until(() => holder.revision('probe') === 2, 'the live delta sent after them');
  t.is(holder.revision('gap'), 1, 'a delta from 2 does not apply to 1');
  t.false(holder.held.has('elsewhere'), 'a namespace not held is not fetched for a live delta');
  t.like(follower.counts, { fetches: 0, refused: 0, deferred: 0 });
  t.deepEqual(holder.announcements, ['probe@2'], 'only what was applied is announced');
  t.deepEqual(lines, []);

  // The bucket alone (no live copy): the hydration of 2 and the delta from it.
  const nc = await connect({ servers: NATS_URL });
  t.teardown(() => nc.close());
  const kv = await nc.jetstream().views.kv(names.bucket);
  await kv.put(namespaceKeyToKvKey('gap'), (await encodeEnvelope(g2.snapshot)).value);
  await kv.put(namespaceKeyToDeltaKey('gap'), (await encodeEnvelope(g3.deltaFrom(2, ['flag-1']))).value);
  await until(() => holder.revision('gap') === 3, 'the change from the bucket');
  t.is(holder.peek('gap')?.snapshot.checksum, g3.snapshot.checksum);
  t.is(follower.counts.refused, 0);
});

test('while the bucket takes no writes, a published delta still reaches followers live, and its bucket write completes once writes are taken again', async (t) => {
  const names = ownNames(t);
  const [publisher, watcher] = busesOf(t, names, 2) as [SnapshotBus, SnapshotBus];
  const [v1, v2] = historyOf('stalled');
  await publisher.publishHydration(v1.snapshot);
  const { holder } = await followerOf(t, watcher);

  const resume = await stallWrites(names);
  let placed: number | undefined | 'waiting' = 'waiting';
  const publishing = publisher.publishDelta(v2.deltaFrom(1, ['flag-0'])).then((bytes) => (placed = bytes));
  await until(() => holder.revision('stalled') === 2, 'the delta, live', 5000);
  t.is(placed, 'waiting', 'the bucket write is still waiting');
  await resume();
  t.truthy(await publishing, 'placed once the bucket takes writes');
  t.is((await publisher.get('stalled'))?.delta?.revision, 2, 'and what a starting process reads has it');
});

test('the live subscription outlives a reconnect', async (t) => {
  const names = ownNames(t);
  const proxy = new TcpProxy(4222);
  await proxy.open();
  const watcher = openSnapshotBus({ url: proxy.url('nats'), ...names });
  const [publisher] = busesOf(t, names, 1) as [SnapshotBus];
  t.teardown(async () => {
    await watcher.close();
    await proxy.close();
  });
  const live: number[] = [];
  let synced = false;
  await watcher.watch((entry) => void (fromBucket(entry) || live.push((entry as { revision: number }).revision)), () => (synced = true));
  await until(() => synced, 'initial sync');
  await publisher.publishLive(deltaOf('r', 1, 2));
  await until(() => live.includes(2), 'a live delta');

  await proxy.close();
  await until(() => watcher.status() === 'reconnecting', 'reconnecting status');
  await proxy.open();
  await until(() => watcher.status() === 'connected', 'connected again');
  // Sent until heard: the server learns the subscription again as the reconnected client resends it.
  const after = deltaOf('r', 1, 3);
  await until(async () => (await publisher.publishLive(after)) !== undefined && live.includes(3), 'a live delta after the reconnect');
  t.deepEqual([...new Set(live)], [2, 3]);
});
