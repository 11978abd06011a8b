/**
 * A bucket shared by processes of three releases: the previous one (envelope format 1), this one
 * (format 3; format 2 is the one before, written as a pinned bus writes it) and the next (format 4, made up here). Each reads what it understands, and none writes
 * over what it does not.
 */
import test from 'ava';
import { gunzipSync } from 'node:zlib';
import { connect, type KV } from 'nats';
import { SnapshotVersion } from '@ensign/snapshots';
import { type BucketEntry, EnvelopeError, namespaceKeyToDeltaKey, namespaceKeyToKvKey, type SnapshotBus } from '../src/index.js';
import { type BusNames, connected, destroyNames, freshNames, fromBucket, NATS_URL, openTestBus, recordingLogger } from './helpers/nats.js';
import { previousReleaseRead, previousReleaseValue } from './helpers/previous-release.js';
import { documentOf } from './helpers/snapshots.js';
import { until } from './helpers/wait.js';

const OPTIONS = { hash: 'murmur3' } as const;

/** A version with real checksums, as a control plane makes it. */
const versionOf = (namespaceKey: string, revision: number, flags = 3): SnapshotVersion => SnapshotVersion.build(namespaceKey, revision, documentOf(namespaceKey, flags).flags, OPTIONS);

/** Fresh names and a raw KV handle on them (past the bus), dropped after the test. */
async function bucketOf(t: { teardown(fn: () => Promise<void> | void): void }): Promise<{ names: BusNames; kv: KV }> {
  const names = freshNames();
  const nc = await connect({ servers: NATS_URL });
  t.teardown(async () => {
    await nc.close();
    await destroyNames(names);
  });
  return { names, kv: await nc.jetstream().views.kv(names.bucket, { history: 1 }) };
}

/** A bus of this release, closed after the test. */
function busOf(t: { teardown(fn: () => Promise<void>): void }, names: BusNames, options: Parameters<typeof openTestBus>[1] = {}): SnapshotBus {
  const bus = openTestBus(names, options);
  t.teardown(() => bus.close());
  return bus;
}

const valueAt = async (kv: KV, key: string): Promise<Record<string, unknown> | undefined> => {
  const entry = await kv.get(key);
  return entry?.operation === 'PUT' ? (JSON.parse(Buffer.from(entry.value).toString('utf8')) as Record<string, unknown>) : undefined;
};

test("the previous release's snapshot is read, checked against its own checksum, and a delta of this release applies on top", async (t) => {
  const { names, kv } = await bucketOf(t);
  const bus = busOf(t, names);
  const seen: BucketEntry[] = [];
  await bus.watch((entry) => void (fromBucket(entry) && seen.push(entry)), () => undefined);
  const held = versionOf('shop', 5);
  await kv.put(namespaceKeyToKvKey('shop'), previousReleaseValue(held.snapshot.document, 5));
  await until(() => seen.length === 1, 'the previous release’s hydration');

  const entry = seen[0] as Extract<BucketEntry, { kind: 'hydration' }>;
  t.like(entry, { kind: 'hydration', namespaceKey: 'shop', revision: 5 });
  const version = SnapshotVersion.hydrate(await entry.read(), OPTIONS);
  t.is(version.snapshot.checksum, held.snapshot.checksum, 'it comes with this release’s checksum, which the holders verify');
  t.deepEqual((await bus.get('shop'))?.hydration, version.snapshot, 'a whole fetch reads it the same way');

  const next = held.next(6, documentOf('shop', 1).flags, ['flag-0']);
  await bus.publishDelta(next.deltaFrom(5, ['flag-0', ...next.snapshot.document.flags.map((f) => f.key)]));
  await until(() => seen.length === 2, 'the delta');
  const delta = seen[1] as Extract<BucketEntry, { kind: 'delta' }>;
  t.is(version.apply(await delta.read()).snapshot.checksum, next.snapshot.checksum, 'the namespace converges across the two formats');

  const tampered = JSON.parse(Buffer.from(previousReleaseValue(held.snapshot.document, 7)).toString('utf8')) as Record<string, unknown>;
  await kv.put(namespaceKeyToKvKey('shop'), Buffer.from(JSON.stringify({ ...tampered, checksum: '0'.repeat(64) })));
  await until(() => seen.length === 3, 'the tampered hydration');
  await t.throwsAsync((seen[2] as Extract<BucketEntry, { kind: 'hydration' }>).read(), { instanceOf: EnvelopeError, message: /checksum/ });
});

test('told to write the previous format, a bus writes only what the previous release reads: whole snapshots, inline or in the object store', async (t) => {
  const { names, kv } = await bucketOf(t);
  const bus = busOf(t, names, { envelopeVersion: 1, maxInlineBytes: 2048 });
  await connected(bus);
  const fetchObject = (name: string) => objectOf(names, name);

  for (const [namespaceKey, flags] of [['small', 1], ['large', 40]] as const) {
    const version = versionOf(namespaceKey, 3, flags);
    t.truthy(await bus.publishHydration(version.snapshot), `${namespaceKey} placed`);
    const value = (await kv.get(namespaceKeyToKvKey(namespaceKey)))?.value as Uint8Array;
    const read = await previousReleaseRead(value, fetchObject);
    t.deepEqual(read.document, version.snapshot.document, `${namespaceKey}: the previous release reads the document`);
    t.is(read.revision, 3);
  }
  t.like(await valueAt(kv, namespaceKeyToKvKey('large')), { v: 1 }, 'a large one too, through its object');

  const delta = versionOf('small', 4, 1).deltaFrom(3, ['flag-0']);
  await t.throwsAsync(bus.publishDelta(delta), { instanceOf: EnvelopeError }, 'a delta is refused, so the publisher sends a hydration');
  t.is(await valueAt(kv, namespaceKeyToDeltaKey('small')), undefined, 'and nothing goes under the delta key');
});

test('left to its default, a bus writes format 3 only, hydrations and deltas alike; a hydration is a line per flag', async (t) => {
  const { names, kv } = await bucketOf(t);
  const bus = busOf(t, names);
  const version = versionOf('shop', 1);
  await bus.publishHydration(version.snapshot);
  await bus.publishDelta(version.next(2, [], ['flag-0']).deltaFrom(1, ['flag-0']));
  const hydration = await valueAt(kv, namespaceKeyToKvKey('shop'));
  t.like(hydration, { v: 3, kind: 'hydration' });
  t.like(await valueAt(kv, namespaceKeyToDeltaKey('shop')), { v: 3, kind: 'delta' });
  const lines = gunzipSync(Buffer.from(hydration?.document as string, 'base64')).toString('utf8').split('\n');
  t.deepEqual(lines.map((line) => JSON.parse(line) as unknown), [{ namespace: { key: 'shop' } }, ...version.snapshot.document.flags]);
});

test('pinned to format 2, a bus writes what the previous release reads, and this release reads it back alike', async (t) => {
  const { names, kv } = await bucketOf(t);
  const pinned = busOf(t, names, { envelopeVersion: 2, maxInlineBytes: 2048 });
  const current = busOf(t, names);
  await connected(pinned);
  for (const [namespaceKey, flags] of [['small', 1], ['large', 40]] as const) {
    const version = versionOf(namespaceKey, 3, flags);
    t.truthy(await pinned.publishHydration(version.snapshot), `${namespaceKey} placed`);
    t.like(await valueAt(kv, namespaceKeyToKvKey(namespaceKey)), { v: 2, kind: 'hydration' });
    t.deepEqual((await current.get(namespaceKey))?.hydration, version.snapshot, `${namespaceKey}: read back whole`);
  }
  const delta = versionOf('small', 4, 2).deltaFrom(3, ['flag-1']);
  await pinned.publishDelta(delta);
  t.like(await valueAt(kv, namespaceKeyToDeltaKey('small')), { v: 2, kind: 'delta' });
  t.deepEqual((await current.get('small'))?.delta, delta);
});

test("the next release's envelopes are skipped with one warning, what is held keeps being served, and nothing is written over them", async (t) => {
  const { names, kv } = await bucketOf(t);
  const logger = recordingLogger();
  const bus = busOf(t, names, { logger });
  const seen: string[] = [];
  await bus.watch((entry) => void (fromBucket(entry) && seen.push(entry.kind === 'delete' ? `delete ${entry.namespaceKey}` : `${entry.kind} ${entry.namespaceKey}@${entry.revision}`)), () => undefined);
  await bus.publishHydration(versionOf('shop', 4).snapshot);
  const next = (revision: number, kind: string) => Buffer.from(JSON.stringify({ v: 4, namespace: 'shop', revision, kind, checksum: 'x', encoding: 'zstd', body: 'what this release cannot know' }));
  await kv.put(namespaceKeyToKvKey('shop'), next(9, 'hydration'));
  await kv.put(namespaceKeyToDeltaKey('shop'), next(10, 'delta'));
  await bus.publishHydration(versionOf('other', 1).snapshot);
  await until(() => seen.includes('hydration other@1'), 'an entry written after them');

  t.deepEqual(seen, ['hydration shop@4', 'hydration other@1'], 'the watch goes on past them; the holder keeps shop@4');
  t.is(logger.lines.filter((line) => /format 4/.test(line.msg)).length, 1, 'one warning, naming the format');
  t.is(await bus.publishHydration(versionOf('shop', 12).snapshot), undefined, 'a newer revision is not written over it');
  t.is(await bus.publishDelta(versionOf('shop', 12).deltaFrom(4, ['flag-0'])), undefined);
  await bus.remove('shop', 8);
  t.like(await valueAt(kv, namespaceKeyToKvKey('shop')), { v: 4, revision: 9 }, 'the next release’s hydration stays');
  t.like(await valueAt(kv, namespaceKeyToDeltaKey('shop')), { v: 4, revision: 10 }, 'and its delta');
  t.is((await bus.revisions()).get('shop'), 10, 'the reconciler sees its revision, so it does not republish over it');
  t.is(logger.lines.filter((line) => /format 4/.test(line.msg)).length, 1, 'still one warning');
});

/** Reads an object of the test's object store, as the previous release fetched large documents. */
async function objectOf(names: BusNames, name: string): Promise<Uint8Array | null> {
  const nc = await connect({ servers: NATS_URL });
  try {
    return await (await nc.jetstream().views.os(names.objectStore)).getBlob(name);
  } finally {
    await nc.close();
  }
}
