import test from 'ava';
import { openSnapshotBus } from '@ensign/bus';
import type { NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';
// The subpath keeps database drivers out of the evaluator's tests.
import { NATS_URL, testBucket } from '@ensign/testkit/nats-bucket';
import { pino } from 'pino';
import { snapshotChecksum } from '@ensign/snapshots';
import { NatsSnapshotSource } from '../src/index.js';


function snapshot(namespaceKey: string, revision: number, flagKeys: string[], enabled = true): NamespaceSnapshot {
  const document = {
    namespace: { key: namespaceKey },
    flags: flagKeys.map((key) => ({
      key,
      name: key,
      description: '',
      enabled,
      type: 'BOOLEAN_FLAG_TYPE',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      rules: [],
      rollouts: [],
    })),
  } as SnapshotDocument;
  return { namespaceKey, revision, checksum: snapshotChecksum(document), document };
}

async function fresh(t: import('ava').ExecutionContext, maxNamespaces = 100) {
  const names = testBucket();
  const bus = openSnapshotBus({ url: NATS_URL, bucket: names.bucket, objectStore: names.objectStore });
  const source = new NatsSnapshotSource({ bus, hash: 'murmur3', maxNamespaces, maxBytes: 1 << 30, logger: pino({ level: 'silent' }) });
  t.teardown(async () => {
    await source.stop();
    await bus.close();
    await names.drop();
  });
  return { bus, source };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const flagsOf = (source: NatsSnapshotSource, ns: string) => source.get(ns)?.snapshot.document.flags.map((f) => f.key);

test('it is not ready until the bucket has been read, then holds every namespace compiled', async (t) => {
  const { bus, source } = await fresh(t);
  await bus.publishHydration(snapshot('default', 3, ['a']));
  await bus.publishHydration(snapshot('shop', 5, ['b', 'c']));
  t.false(source.ready());
  t.is(source.get('default'), undefined);
  await source.start();
  await until(() => source.ready(), 'initial sync');
  t.deepEqual(flagsOf(source, 'default'), ['a']);
  t.deepEqual(flagsOf(source, 'shop'), ['b', 'c']);
  t.true(source.get('shop')?.compiled !== undefined);
  t.deepEqual(
    [...source.namespaces()].map(([k, v]) => [k, v.revision]).sort(),
    [
      ['default', 3],
      ['shop', 5],
    ],
  );
});

test('updates and deletes arrive after the sync; an empty bucket syncs too', async (t) => {
  const { bus, source } = await fresh(t);
  await source.start();
  await until(() => source.ready(), 'initial sync');
  await bus.publishHydration(snapshot('default', 1, ['a']));
  await until(() => source.get('default') !== undefined, 'the new namespace');
  await bus.publishHydration(snapshot('default', 2, ['a', 'b']));
  await until(() => source.get('default')?.snapshot.revision === 2, 'the update');
  t.deepEqual(flagsOf(source, 'default'), ['a', 'b']);
  await bus.remove('default', 2);
  await until(() => source.get('default') === undefined, 'the delete');
  t.false(source.namespaces().has('default'));
});

test('a snapshot that does not compile never replaces the good one held', async (t) => {
  const { bus, source } = await fresh(t);
  await bus.publishHydration(snapshot('default', 1, ['a']));
  await source.start();
  await until(() => source.ready(), 'initial sync');
  // Two flags with the same key: a valid envelope carrying an invalid document.
  await bus.publishHydration(snapshot('default', 2, ['dup', 'dup']));
  await bus.publishHydration(snapshot('marker', 1, ['m']));
  await until(() => source.get('marker') !== undefined, 'a later change');
  t.is(source.get('default')?.snapshot.revision, 1);
  t.deepEqual(flagsOf(source, 'default'), ['a']);
});

test('at most evaluator.max_namespaces namespaces are held; one not held is fetched from the bucket, least recently used dropped first', async (t) => {
  const { bus, source } = await fresh(t, 2);
  await source.start();
  await until(() => source.ready(), 'initial sync');
  await bus.publishHydration(snapshot('one', 1, ['a']));
  await bus.publishHydration(snapshot('two', 1, ['a']));
  await until(() => source.get('two') !== undefined, 'two');
  await bus.publishHydration(snapshot('three', 4, ['c']));
  await until(() => source.fetchable('three'), 'three announced');
  t.deepEqual([...source.namespaces().keys()].sort(), ['one', 'two'], 'no room: only the revision of "three" is remembered');
  t.truthy(source.get('one'), 'used, so "two" is now the least recently used');
  const three = await source.load('three');
  t.is(three?.snapshot.revision, 4);
  t.deepEqual(three?.snapshot.document.flags.map((f) => f.key), ['c']);
  t.deepEqual([...source.namespaces().keys()].sort(), ['one', 'three']);
  t.false(source.fetchable('never-published'));
  t.is(await source.load('never-published'), undefined);
});

test('a streamed (pinned) namespace is never dropped for room, takes every update and announces it; unpinned it rejoins the cache', async (t) => {
  const { bus, source } = await fresh(t, 1);
  const changed: string[] = [];
  source.onChange((key) => changed.push(key));
  await source.start();
  await until(() => source.ready(), 'initial sync');
  await bus.publishHydration(snapshot('watched', 1, ['a']));
  await until(() => source.get('watched') !== undefined, 'watched');
  source.pin('watched');
  source.pin('watched');
  // Another namespace fills the one-namespace cache; the pinned one stays.
  await bus.publishHydration(snapshot('other', 1, ['b']));
  await until(() => source.fetchable('other'), 'other announced');
  t.is((await source.load('other'))?.snapshot.revision, 1);
  t.is(source.get('watched')?.snapshot.revision, 1);
  await bus.publishHydration(snapshot('watched', 2, ['a', 'c']));
  await until(() => source.get('watched')?.snapshot.revision === 2, 'the pinned update');
  t.true(changed.includes('watched'));
  t.deepEqual([...source.namespaces().keys()].sort(), ['other', 'watched']);
  // A namespace streamed before it exists is taken as soon as it is published, room or not.
  source.pin('later');
  await bus.publishHydration(snapshot('later', 1, ['z']));
  await until(() => source.get('later') !== undefined, 'the pinned new namespace');
  t.true(changed.includes('later'));
  // Two pins need two unpins; then the LRU's bound applies again.
  source.unpin('watched');
  t.truthy(source.get('watched'));
  source.unpin('watched');
  source.unpin('later');
  t.is(source.usage().held, 1);
});
