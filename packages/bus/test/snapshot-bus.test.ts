import test from 'ava';
import type { NamespaceSnapshot } from '@ensign/engine';
import { connect } from 'nats';
import { namespaceKeyToKvKey, parseEnvelope } from '../src/index.js';
import type { SnapshotChange } from '../src/index.js';
import { destroyNames, freshNames, NATS_URL, openTestBus } from './helpers/nats.js';
import { documentOf, snapshotOf } from './helpers/snapshots.js';
import { until } from './helpers/wait.js';

const names = freshNames();
const watchNames = freshNames();
const bus = openTestBus(names);
const other = openTestBus(names);

test.after.always(async () => {
  await Promise.all([bus.close(), other.close()]);
  await destroyNames(names);
  await destroyNames(watchNames);
});

/** Equality of large snapshots without a structural diff (slow on 10,000 flags). */
function sameSnapshot(a: NamespaceSnapshot | undefined, b: NamespaceSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The raw envelope and the object store's names, read past the bus. */
async function rawState(namespaceKey: string): Promise<{ objectRef: string | undefined; objects: string[] }> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const js = nc.jetstream();
    const entry = await (await js.views.kv(names.bucket)).get(namespaceKeyToKvKey(namespaceKey));
    const objects = (await (await js.views.os(names.objectStore)).list()).map((o) => o.name);
    const objectRef = entry?.operation === 'PUT' ? parseEnvelope(entry.value).objectRef : undefined;
    return { objectRef, objects };
  } finally {
    await nc.close();
  }
}

test('a published snapshot is read back; an unknown namespace is undefined', async (t) => {
  const snapshot = snapshotOf(documentOf('Team,Alpha_1-x'), 4);
  await bus.publish(snapshot);
  t.deepEqual(await bus.get('Team,Alpha_1-x'), snapshot);
  t.deepEqual(await other.get('Team,Alpha_1-x'), snapshot, 'another connection sees it');
  t.is(await bus.get('team,alpha_1-x'), undefined, 'keys are case-sensitive');
  t.is(bus.status(), 'connected');
});

test('a 10,000-flag document goes through the object store, round-trips, and its old object is deleted when replaced', async (t) => {
  const big = snapshotOf(documentOf('huge', 10_000, 48), 1);
  t.true(JSON.stringify(big.document).length > 4_000_000);
  await bus.publish(big);
  const first = await rawState('huge');
  t.truthy(first.objectRef);
  t.true(first.objects.includes(first.objectRef as string));
  t.true(sameSnapshot(await other.get('huge'), big));

  const bigger = snapshotOf(documentOf('huge', 10_000, 48), 2);
  await bus.publish(bigger);
  const second = await rawState('huge');
  t.not(second.objectRef, first.objectRef);
  t.false(second.objects.includes(first.objectRef as string), 'the replaced document is gone');
  t.true(sameSnapshot(await bus.get('huge'), bigger));

  const small = snapshotOf(documentOf('huge', 1), 3);
  await bus.publish(small);
  const third = await rawState('huge');
  t.is(third.objectRef, undefined, 'a small document is inline again');
  t.false(third.objects.some((name) => name.startsWith(namespaceKeyToKvKey('huge') + '.')), 'no document of the namespace is left');
  t.deepEqual(await bus.get('huge'), small);
});

test('a stale or equal publish does not regress the bucket', async (t) => {
  const current = snapshotOf(documentOf('stale'), 5);
  await bus.publish(current);
  await bus.publish(snapshotOf(documentOf('stale'), 3));
  await other.publish(snapshotOf(documentOf('stale'), 5));
  t.deepEqual(await bus.get('stale'), current);
  t.is((await bus.revisions()).get('stale'), 5);
});

test('two publishers racing through revisions end with the newest', async (t) => {
  const revisions = Array.from({ length: 20 }, (_, i) => i + 1);
  const shuffled = [...revisions].sort(() => Math.random() - 0.5);
  const publishers = [bus, other];
  await Promise.all(shuffled.map((revision, i) => publishers[i % 2]!.publish(snapshotOf(documentOf('race'), revision))));
  t.is((await bus.get('race'))?.revision, 20);

  // Many rounds of one old and one new at once: the new one always wins.
  for (let round = 0; round < 10; round++) {
    const older = snapshotOf(documentOf('race2'), 100 + round * 2);
    const newer = snapshotOf(documentOf('race2'), 101 + round * 2);
    await Promise.all([bus.publish(newer), other.publish(older)]);
    t.deepEqual(await bus.get('race2'), newer);
  }
});

test('remove deletes a namespace unless a newer snapshot is held, and a re-created one comes back', async (t) => {
  await bus.publish(snapshotOf(documentOf('gone'), 8));
  await bus.remove('gone', 7);
  t.is((await bus.get('gone'))?.revision, 8, 'a removal older than the held snapshot is ignored');
  await bus.remove('gone', 9);
  t.is(await bus.get('gone'), undefined);
  t.false((await bus.revisions()).has('gone'));
  await bus.remove('gone', 10);
  await bus.remove('never-existed', 1);
  const recreated = snapshotOf(documentOf('gone'), 11);
  await other.publish(recreated);
  t.deepEqual(await bus.get('gone'), recreated);
});

test('revisions lists what the bucket holds per namespace', async (t) => {
  await bus.publish(snapshotOf(documentOf('rev-a'), 2));
  await bus.publish(snapshotOf(documentOf('rev,b'), 9));
  const revisions = await other.revisions();
  t.is(revisions.get('rev-a'), 2);
  t.is(revisions.get('rev,b'), 9);
});

test('watch delivers held namespaces, then synced once, then updates and deletes in order', async (t) => {
  const publisher = openTestBus(watchNames);
  const watcher = openTestBus(watchNames);
  t.teardown(async () => {
    await Promise.all([publisher.close(), watcher.close()]);
  });
  const a1 = snapshotOf(documentOf('a'), 1);
  const b1 = snapshotOf(documentOf('b,B'), 1);
  const big = snapshotOf(documentOf('c', 3000, 128), 1);
  await publisher.publish(a1);
  await publisher.publish(b1);
  await publisher.publish(big);

  const events: string[] = [];
  const delivered = new Map<string, NamespaceSnapshot>();
  const watch = await watcher.watch(
    (change: SnapshotChange) => {
      if (change.kind === 'put') {
        events.push(`put ${change.snapshot.namespaceKey}@${change.snapshot.revision}`);
        delivered.set(change.snapshot.namespaceKey, change.snapshot);
      } else {
        events.push(`delete ${change.namespaceKey}`);
      }
    },
    () => events.push('synced'),
  );
  await until(() => events.includes('synced'), 'initial sync');
  t.deepEqual(new Set(events.slice(0, 3)), new Set(['put a@1', 'put b,B@1', 'put c@1']));
  t.is(events[3], 'synced');
  t.true(sameSnapshot(delivered.get('c'), big), 'the object-store document arrives whole');
  t.deepEqual(delivered.get('b,B'), b1);

  const a2 = snapshotOf(documentOf('a'), 2);
  await publisher.publish(a2);
  await publisher.remove('b,B', 2);
  await until(() => events.length >= 6, 'updates');
  t.deepEqual(events.slice(4), ['put a@2', 'delete b,B']);
  t.deepEqual(delivered.get('a'), a2);

  await watch.stop();
  await publisher.publish(snapshotOf(documentOf('a'), 3));
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(events.length, 6, 'nothing is delivered after stop');
  t.is(events.filter((e) => e === 'synced').length, 1);
});

test('watching an empty bucket is synced at once', async (t) => {
  const emptyNames = freshNames();
  const watcher = openTestBus(emptyNames);
  t.teardown(async () => {
    await watcher.close();
    await destroyNames(emptyNames);
  });
  let synced = 0;
  await watcher.watch(
    () => t.fail('nothing to deliver'),
    () => synced++,
  );
  await until(() => synced > 0, 'initial sync');
  t.is(synced, 1);
});
