import test from 'ava';
import type { NamespaceSnapshot } from '@ensign/engine';
import { connect } from 'nats';
import { DeltaTooLargeError, namespaceKeyToDeltaKey, namespaceKeyToKvKey, parseEnvelope } from '../src/index.js';
import { connected, destroyNames, freshNames, NATS_URL, openTestBus } from './helpers/nats.js';
import { deltaOf, documentOf, snapshotOf } from './helpers/snapshots.js';

const names = freshNames();
const bus = openTestBus(names);
const other = openTestBus(names);
/** A bus whose values go inline only up to 4 KiB; opened with the others, before the 10,000-flag test loads the process. */
const small = openTestBus(names, { maxInlineBytes: 4096 });

test.after.always(async () => {
  await Promise.all([bus.close(), other.close(), small.close()]);
  await destroyNames(names);
});

/** Equality of large snapshots without a structural diff (slow on 10,000 flags). */
function sameSnapshot(a: NamespaceSnapshot | undefined, b: NamespaceSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A namespace's two raw values and the object store's names, read past the bus. */
async function rawState(namespaceKey: string) {
  const nc = await connect({ servers: NATS_URL });
  try {
    const js = nc.jetstream();
    const kv = await js.views.kv(names.bucket);
    const hydration = await kv.get(namespaceKeyToKvKey(namespaceKey));
    const delta = await kv.get(namespaceKeyToDeltaKey(namespaceKey));
    const objects = await (await js.views.os(names.objectStore)).list();
    const envelope = hydration?.operation === 'PUT' ? parseEnvelope(hydration.value) : undefined;
    return {
      hydrationBytes: hydration?.operation === 'PUT' ? hydration.length : undefined,
      deltaBytes: delta?.operation === 'PUT' ? delta.length : undefined,
      deltaRevision: delta?.operation === 'PUT' ? parseEnvelope(delta.value).revision : undefined,
      objectRef: envelope?.kind === 'hydration' ? envelope.objectRef : undefined,
      objects: new Map(objects.map((o) => [o.name, o.size])),
    };
  } finally {
    await nc.close();
  }
}

test('a published hydration is read back with no delta; an unknown namespace is undefined', async (t) => {
  const snapshot = snapshotOf(documentOf('Team,Alpha_1-x'), 4);
  const bytes = await bus.publishHydration(snapshot);
  t.is(bytes, (await rawState('Team,Alpha_1-x')).hydrationBytes, 'resolves the bytes of the KV value');
  t.deepEqual(await bus.get('Team,Alpha_1-x'), { hydration: snapshot });
  t.deepEqual(await other.get('Team,Alpha_1-x'), { hydration: snapshot }, 'another connection sees it');
  t.is(await bus.get('team,alpha_1-x'), undefined, 'keys are case-sensitive');
  t.is(bus.status(), 'connected');
});

test('a delta round-trips on top of its hydration; get returns it only while it is newer than the hydration', async (t) => {
  const base = snapshotOf(documentOf('layered', 50), 10);
  await bus.publishHydration(base);
  const delta = deltaOf('layered', 10, 12, 3, ['flag-0']);
  const bytes = await bus.publishDelta(delta);
  const raw = await rawState('layered');
  t.is(bytes, raw.deltaBytes, 'resolves the bytes of the delta value');
  t.true((bytes ?? Infinity) < (raw.hydrationBytes ?? 0), 'a small delta is smaller than its hydration');
  t.deepEqual(await other.get('layered'), { hydration: base, delta });

  const compacted = snapshotOf(documentOf('layered'), 12);
  await other.publishHydration(compacted);
  t.deepEqual(await bus.get('layered'), { hydration: compacted }, 'a delta as old as the hydration is left out');
  t.is((await rawState('layered')).deltaRevision, 12, 'the delta key itself is untouched');

  const next = deltaOf('layered', 12, 13);
  t.truthy(await bus.publishDelta(next));
  t.deepEqual(await bus.get('layered'), { hydration: compacted, delta: next });
});

test('a delta is not placed over a newer or equal delta; one older than the hydration is never read back', async (t) => {
  await bus.publishHydration(snapshotOf(documentOf('guarded'), 5));
  const held = deltaOf('guarded', 5, 8);
  t.truthy(await bus.publishDelta(held));
  t.is(await other.publishDelta(deltaOf('guarded', 5, 7)), undefined, 'older than the held delta');
  t.is(await other.publishDelta(deltaOf('guarded', 5, 8)), undefined, 'as old as the held delta');
  t.deepEqual((await bus.get('guarded'))?.delta, held);

  const hydration = snapshotOf(documentOf('guarded'), 20);
  await bus.publishHydration(hydration);
  // The hydration is not read when a delta is published (that would cost the whole document per write).
  t.truthy(await other.publishDelta(deltaOf('guarded', 8, 15)), 'placed: newer than the held delta');
  t.is((await rawState('guarded')).deltaRevision, 15);
  t.deepEqual(await bus.get('guarded'), { hydration }, 'a delta older than the hydration is left out');
});

test('a stale or equal hydration is not placed and does not regress the bucket', async (t) => {
  const current = snapshotOf(documentOf('stale'), 5);
  t.truthy(await bus.publishHydration(current));
  t.is(await bus.publishHydration(snapshotOf(documentOf('stale'), 3)), undefined);
  t.is(await other.publishHydration(snapshotOf(documentOf('stale'), 5)), undefined);
  t.deepEqual(await bus.get('stale'), { hydration: current });
  t.is((await bus.revisions()).get('stale'), 5);
});

test('two writers racing on the delta key both end with the newest delta', async (t) => {
  await bus.publishHydration(snapshotOf(documentOf('race'), 1));
  // Each writer publishes its revisions in order, as a control plane's per-namespace lane does.
  const write = async (writer: typeof bus, revisions: number[]) => {
    for (const revision of revisions) await writer.publishDelta(deltaOf('race', 1, revision));
  };
  const odd = Array.from({ length: 15 }, (_, i) => 2 * i + 3);
  const even = Array.from({ length: 15 }, (_, i) => 2 * i + 2);
  await Promise.all([write(bus, odd), write(other, even)]);
  t.is((await bus.get('race'))?.delta?.revision, 31);
  t.is((await other.get('race'))?.delta?.revision, 31);

  // Many rounds of one old and one new at once: the new one always wins.
  for (let round = 0; round < 10; round++) {
    const older = deltaOf('race', 1, 100 + round * 2);
    const newer = deltaOf('race', 1, 101 + round * 2);
    const [placedNewer] = await Promise.all([bus.publishDelta(newer), other.publishDelta(older)]);
    t.truthy(placedNewer);
    t.deepEqual((await other.get('race'))?.delta, newer);
  }
});

test('two writers racing through hydrations end with the newest', async (t) => {
  const revisions = Array.from({ length: 20 }, (_, i) => i + 1);
  const shuffled = [...revisions].sort(() => Math.random() - 0.5);
  const publishers = [bus, other];
  await Promise.all(shuffled.map((revision, i) => publishers[i % 2]!.publishHydration(snapshotOf(documentOf('race-h'), revision))));
  t.is((await bus.get('race-h'))?.hydration.revision, 20);
});

test('a delta too large to go inline is refused and nothing is written', async (t) => {
  await small.publishHydration(snapshotOf(documentOf('too-big'), 1));
  await t.throwsAsync(small.publishDelta(deltaOf('too-big', 1, 2, 100)), { instanceOf: DeltaTooLargeError });
  t.is((await rawState('too-big')).deltaBytes, undefined);
  t.truthy(await small.publishDelta(deltaOf('too-big', 1, 2, 1)), 'a small one still goes');
});

test('a 10,000-flag hydration goes through the object store, round-trips, and its old object is deleted when replaced', async (t) => {
  await connected(bus, other, small);
  const big = snapshotOf(documentOf('huge', 10_000, 48), 1);
  t.true(JSON.stringify(big.document).length > 4_000_000);
  const bytes = await bus.publishHydration(big);
  const first = await rawState('huge');
  t.truthy(first.objectRef);
  t.true(first.objects.has(first.objectRef as string));
  t.is(bytes, (first.hydrationBytes ?? 0) + (first.objects.get(first.objectRef as string) ?? 0), 'bytes count the KV value and the object');
  t.true(sameSnapshot((await other.get('huge'))?.hydration, big));

  const bigger = snapshotOf(documentOf('huge', 10_000, 48), 2);
  await bus.publishHydration(bigger);
  const second = await rawState('huge');
  t.not(second.objectRef, first.objectRef);
  t.false(second.objects.has(first.objectRef as string), 'the replaced document is gone');
  t.true(sameSnapshot((await bus.get('huge'))?.hydration, bigger));

  const delta = deltaOf('huge', 2, 3);
  await bus.publishDelta(delta);
  const layered = await other.get('huge');
  t.true(sameSnapshot(layered?.hydration, bigger));
  t.deepEqual(layered?.delta, delta);

  const tiny = snapshotOf(documentOf('huge', 1), 4);
  await bus.publishHydration(tiny);
  const third = await rawState('huge');
  t.is(third.objectRef, undefined, 'a small document is inline again');
  t.false([...third.objects.keys()].some((name) => name.startsWith(namespaceKeyToKvKey('huge') + '.')), 'no document of the namespace is left');
  t.deepEqual(await bus.get('huge'), { hydration: tiny });
});

test('remove deletes the hydration, the delta and the object unless something newer is held, and a re-created namespace comes back', async (t) => {
  await small.publishHydration(snapshotOf(documentOf('gone', 50), 8));
  await bus.publishDelta(deltaOf('gone', 8, 10));
  const before = await rawState('gone');
  t.truthy(before.objectRef, 'the hydration is in the object store');

  await bus.remove('gone', 9);
  t.like(await rawState('gone'), { deltaRevision: 10, objectRef: before.objectRef }, 'a removal older than the held delta is ignored');
  t.is((await bus.get('gone'))?.delta?.revision, 10);

  await bus.remove('gone', 10);
  const after = await rawState('gone');
  t.is(after.hydrationBytes, undefined);
  t.is(after.deltaBytes, undefined);
  t.false(after.objects.has(before.objectRef as string), 'the object is deleted');
  t.is(await bus.get('gone'), undefined);
  t.false((await bus.revisions()).has('gone'));

  await bus.remove('gone', 11);
  await bus.remove('never-existed', 1);
  const recreated = snapshotOf(documentOf('gone'), 12);
  await other.publishHydration(recreated);
  t.deepEqual(await bus.get('gone'), { hydration: recreated });
  await bus.remove('gone', 11);
  t.deepEqual(await bus.get('gone'), { hydration: recreated }, 'a late removal of the old namespace leaves the new one');
});

test('revisions reports the newest of hydration and delta per namespace, and only namespaces with a hydration', async (t) => {
  await bus.publishHydration(snapshotOf(documentOf('rev-a'), 2));
  await bus.publishHydration(snapshotOf(documentOf('rev,b'), 3));
  await bus.publishDelta(deltaOf('rev,b', 3, 6));
  await bus.publishHydration(snapshotOf(documentOf('rev-c'), 4));
  await bus.publishDelta(deltaOf('rev-c', 4, 7));
  await bus.publishHydration(snapshotOf(documentOf('rev-c'), 9));
  await bus.publishDelta(deltaOf('rev-d', 1, 2));
  const revisions = await other.revisions();
  t.is(revisions.get('rev-a'), 2);
  t.is(revisions.get('rev,b'), 6, 'the delta is newer');
  t.is(revisions.get('rev-c'), 9, 'the hydration is newer');
  t.false(revisions.has('rev-d'), 'a delta without its hydration cannot be started from');
});
