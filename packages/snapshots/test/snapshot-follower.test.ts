/** SnapshotFollower: newer wins, gaps and refused deltas heal by fetching, refusals are logged once. */
import test from 'ava';
import type { NamespaceSnapshot } from '@ensign/engine';
import { SnapshotFollower, SnapshotVersion } from '@ensign/snapshots';
import type { FollowedBucket, FollowedEntry, SnapshotDelta, VersionHolder } from '@ensign/snapshots';
import { booleanFlag } from './flags.js';

const OPTIONS = { hash: 'murmur3' as const };

class MapHolder implements VersionHolder {
  readonly held = new Map<string, SnapshotVersion>();
  peek = (key: string) => this.held.get(key);
  offer(version: SnapshotVersion): boolean {
    if ((this.held.get(version.namespaceKey)?.revision ?? -1) >= version.revision) return false;
    this.held.set(version.namespaceKey, version);
    return true;
  }
  drop = (key: string): void => void this.held.delete(key);
  wants = (): boolean => true;
}

function logger() {
  const errors: string[] = [];
  const none = () => undefined;
  return { errors, log: { error: (_: object, msg: string) => void errors.push(msg), warn: none, info: none, debug: none } };
}

function bucketOf(current: { hydration: NamespaceSnapshot; delta?: SnapshotDelta } | undefined): FollowedBucket & { gets: number } {
  const bucket = {
    gets: 0,
    watch: async () => ({ stop: async () => undefined }),
    get: async () => {
      bucket.gets++;
      return current;
    },
  };
  return bucket;
}

const hydration = (v: SnapshotVersion): FollowedEntry => ({ kind: 'hydration', namespaceKey: v.namespaceKey, revision: v.revision, read: async () => v.snapshot });
const deltaEntry = (d: SnapshotDelta): FollowedEntry => ({ kind: 'delta', namespaceKey: d.namespaceKey, revision: d.revision, baseRevision: d.baseRevision, read: async () => d });

const v1 = SnapshotVersion.build('ns', 1, [booleanFlag('a', 1)], OPTIONS);
const v2 = v1.next(2, [booleanFlag('a', 2)], []);
const v3 = v2.next(3, [booleanFlag('b', 3)], []);

test('hydrations and deltas are taken in order; older ones are skipped without being read', async (t) => {
  const holder = new MapHolder();
  const { log } = logger();
  const follower = new SnapshotFollower({ bucket: bucketOf(undefined), holder, compile: OPTIONS, logger: log });
  await follower.take(hydration(v1));
  await follower.take(deltaEntry(v2.deltaFrom(1, ['a'])));
  t.is(holder.peek('ns')?.revision, 2);
  let read = false;
  await follower.take({ kind: 'hydration', namespaceKey: 'ns', revision: 2, read: async () => ((read = true), v2.snapshot) });
  t.false(read);
  t.is(follower.counts.stale, 1);
  t.deepEqual(holder.peek('ns')?.snapshot, v2.snapshot);
});

test('a delta beyond the version held fetches the namespace whole', async (t) => {
  const holder = new MapHolder();
  const { log } = logger();
  const bucket = bucketOf({ hydration: v2.snapshot, delta: v3.deltaFrom(2, ['b']) });
  const follower = new SnapshotFollower({ bucket, holder, compile: OPTIONS, logger: log });
  await follower.take(hydration(v1));
  await follower.take(deltaEntry(v3.deltaFrom(2, ['b'])));
  t.is(bucket.gets, 1);
  t.deepEqual(holder.peek('ns')?.snapshot, v3.snapshot);
});

test('a corrupt delta is refused, logged once, and healed from the bucket', async (t) => {
  const holder = new MapHolder();
  const { log, errors } = logger();
  const bucket = bucketOf({ hydration: v3.snapshot });
  const follower = new SnapshotFollower({ bucket, holder, compile: OPTIONS, logger: log });
  await follower.take(hydration(v1));
  const corrupt = { ...v2.deltaFrom(1, ['a']), flags: [booleanFlag('a', 99)] };
  await follower.take(deltaEntry(corrupt));
  t.is(holder.peek('ns')?.revision, 3, 'healed from the bucket');
  holder.held.set('ns', v1);
  await follower.take(deltaEntry(corrupt));
  t.is(errors.length, 1, 'the same refused revision is logged once');
  t.is(follower.counts.refused, 1);
});

test('a hydration that does not verify stays out, and the version held stays', async (t) => {
  const holder = new MapHolder();
  const { log, errors } = logger();
  const follower = new SnapshotFollower({ bucket: bucketOf(undefined), holder, compile: OPTIONS, logger: log });
  await follower.take(hydration(v1));
  const bad = { ...v2.snapshot, checksum: '00' };
  await follower.take({ kind: 'hydration', namespaceKey: 'ns', revision: 2, read: async () => bad });
  t.is(holder.peek('ns')?.revision, 1);
  t.is(errors.length, 1);
});

test('a delete is confirmed before the namespace is dropped', async (t) => {
  const holder = new MapHolder();
  const { log } = logger();
  let gone = false;
  const follower = new SnapshotFollower({ bucket: bucketOf(undefined), holder, compile: OPTIONS, logger: log, confirmDelete: async () => gone });
  await follower.take(hydration(v1));
  await follower.take({ kind: 'delete', namespaceKey: 'ns' });
  t.truthy(holder.peek('ns'));
  gone = true;
  await follower.take({ kind: 'delete', namespaceKey: 'ns' });
  t.is(holder.peek('ns'), undefined);
});

test('only verified entries reach the verified listener', async (t) => {
  const holder = new MapHolder();
  const { log } = logger();
  const heard: string[] = [];
  const verified = { hydration: (key: string, revision: number) => void heard.push(`h ${key}@${revision}`), delta: (d: SnapshotDelta) => void heard.push(`d ${d.baseRevision}->${d.revision}`) };
  const follower = new SnapshotFollower({ bucket: bucketOf({ hydration: v1.snapshot }), holder, compile: OPTIONS, logger: log, verified });
  await follower.take(hydration(v1));
  await follower.take(deltaEntry({ ...v2.deltaFrom(1, ['a']), flags: [booleanFlag('a', 99)] }));
  await follower.take(deltaEntry(v3.deltaFrom(1, ['a', 'b'])));
  t.deepEqual(heard, ['h ns@1', 'h ns@1', 'd 1->3'], 'the refused delta is not heard; its healing fetch verified the hydration again');
});

test('a namespace deleted while a fetch of it reads the bucket is not brought back by that fetch', async (t) => {
  const holder = new MapHolder();
  const { log } = logger();
  let release: () => void = () => undefined;
  const read = new Promise<void>((resolve) => (release = resolve));
  const bucket: FollowedBucket = {
    watch: async () => ({ stop: async () => undefined }),
    get: async () => {
      await read;
      return { hydration: v2.snapshot };
    },
  };
  const follower = new SnapshotFollower({ bucket, holder, compile: OPTIONS, logger: log });
  await follower.take(hydration(v1));
  const loading = follower.load('ns');
  await follower.take({ kind: 'delete', namespaceKey: 'ns' });
  release();
  t.is(await loading, undefined, 'the fetch resolves with what is held: nothing');
  t.is(holder.peek('ns'), undefined, 'the deleted namespace stays gone');

  // A fetch that starts after the deletion takes what the bucket then holds (the namespace created again).
  t.is((await follower.load('ns'))?.revision, 2);
  t.is(holder.peek('ns')?.revision, 2);
});
