import test from 'ava';
import { connect } from 'nats';
import { type BucketEntry, EnvelopeError, namespaceKeyToDeltaKey, namespaceKeyToKvKey } from '../src/index.js';
import { type BusNames, connected, destroyNames, freshNames, fromBucket, NATS_URL, openTestBus, recordingLogger } from './helpers/nats.js';
import { deltaOf, documentOf, snapshotOf } from './helpers/snapshots.js';
import { until } from './helpers/wait.js';

/** Fresh names for one test, dropped after it. */
function ownNames(t: { teardown(fn: () => Promise<void>): void }): BusNames {
  const names = freshNames();
  t.teardown(() => destroyNames(names));
  return names;
}

/** A line per entry, e.g. `delta a@3/1`, for asserting order. */
const describe = (entry: BucketEntry): string =>
  entry.kind === 'delete' ? `delete ${entry.namespaceKey}` : entry.kind === 'delta' ? `delta ${entry.namespaceKey}@${entry.revision}/${entry.baseRevision}` : `hydration ${entry.namespaceKey}@${entry.revision}`;

/** Writes a raw value under a key, past the bus. */
async function putRaw(names: BusNames, key: string, value: string): Promise<void> {
  const nc = await connect({ servers: NATS_URL });
  try {
    await (await nc.jetstream().views.kv(names.bucket)).put(key, new TextEncoder().encode(value));
  } finally {
    await nc.close();
  }
}

test('watch delivers hydrations, deltas and deletes in stream order, initial then live, and read() decodes them', async (t) => {
  const names = ownNames(t);
  const publisher = openTestBus(names);
  const watcher = openTestBus(names);
  t.teardown(() => Promise.all([publisher.close(), watcher.close()]).then(() => undefined));
  await connected(publisher, watcher);
  const a1 = snapshotOf(documentOf('a'), 1);
  const big = snapshotOf(documentOf('c', 3000, 128), 1);
  const a3 = deltaOf('a', 1, 3, 2, ['flag-1']);
  await publisher.publishHydration(a1);
  await publisher.publishHydration(snapshotOf(documentOf('b,B'), 1));
  await publisher.publishHydration(big);
  await publisher.publishDelta(a3);
  await publisher.publishHydration(snapshotOf(documentOf('gone'), 1));
  await publisher.remove('gone', 2);

  const events: string[] = [];
  const entries: BucketEntry[] = [];
  let synced = 0;
  const watch = await watcher.watch(
    (entry) => {
      if (!fromBucket(entry)) return;
      events.push(describe(entry));
      entries.push(entry);
    },
    () => {
      events.push('synced');
      synced++;
    },
  );
  await until(() => synced === 1, 'initial sync');
  t.deepEqual(events, ['hydration a@1', 'hydration b,B@1', 'hydration c@1', 'delta a@3/1', 'delete gone', 'synced']);
  const read = async (i: number) => (entries[i]?.kind === 'delete' ? undefined : entries[i]?.read());
  t.deepEqual(await read(0), a1);
  t.is(JSON.stringify(await read(2)), JSON.stringify(big), 'the object-store document arrives whole');
  t.deepEqual(await read(3), a3);

  const a4 = deltaOf('a', 1, 4);
  const b2 = snapshotOf(documentOf('b,B'), 2);
  await publisher.publishDelta(a4);
  await publisher.publishHydration(b2);
  await publisher.remove('a', 5);
  await until(() => events.length >= 9, 'live changes');
  t.deepEqual(events.slice(6), ['delta a@4/1', 'hydration b,B@2', 'delete a'], 'the delta key deleted with it delivers nothing');
  t.deepEqual(await read(5), a4);
  t.deepEqual(await read(6), b2);

  // A second watch on the same connection hears the entry published after the stop; by then the stopped one would have too.
  const control: string[] = [];
  let controlSynced = false;
  const controlWatch = await watcher.watch((entry) => void (fromBucket(entry) && control.push(describe(entry))), () => (controlSynced = true));
  t.teardown(() => controlWatch.stop());
  await until(() => controlSynced, 'the control watch synced');
  await watch.stop();
  await publisher.publishHydration(snapshotOf(documentOf('a'), 6));
  await until(() => control.includes('hydration a@6'), 'the entry after the stop, at the control watch');
  t.is(events.length, 9, 'nothing is delivered after stop');
  t.is(synced, 1);
});

test('entries decode only when read: a hydration whose object is gone is delivered and its read() rejects', async (t) => {
  const names = ownNames(t);
  const publisher = openTestBus(names, { maxInlineBytes: 2048 });
  const watcher = openTestBus(names);
  t.teardown(() => Promise.all([publisher.close(), watcher.close()]).then(() => undefined));
  await publisher.publishHydration(snapshotOf(documentOf('lazy', 20, 64), 1));
  const nc = await connect({ servers: NATS_URL });
  t.teardown(() => nc.close());
  const os = await nc.jetstream().views.os(names.objectStore);
  for (const info of await os.list()) await os.delete(info.name);

  const entries: BucketEntry[] = [];
  let synced = false;
  await watcher.watch((entry) => void entries.push(entry), () => (synced = true));
  await until(() => synced, 'initial sync');
  t.like(entries, [{ kind: 'hydration', namespaceKey: 'lazy', revision: 1 }]);
  const entry = entries[0];
  if (entry?.kind !== 'hydration') return t.fail();
  await t.throwsAsync(entry.read(), { instanceOf: EnvelopeError, message: /missing/ });
});

test('a corrupt delta is delivered with a read() that rejects, a malformed envelope is skipped with a warning, and the watch goes on', async (t) => {
  const names = ownNames(t);
  const logger = recordingLogger();
  const publisher = openTestBus(names);
  const watcher = openTestBus(names, { logger });
  t.teardown(() => Promise.all([publisher.close(), watcher.close()]).then(() => undefined));
  await publisher.publishHydration(snapshotOf(documentOf('x'), 1));

  const entries: BucketEntry[] = [];
  let synced = false;
  await watcher.watch((entry) => void (fromBucket(entry) && entries.push(entry)), () => (synced = true));
  await until(() => synced, 'initial sync');

  const corrupt = { v: 2, kind: 'delta', namespace: 'x', revision: 2, baseRevision: 1, checksum: 'c', encoding: 'gzip', document: 'bm90IGd6aXA=' };
  await putRaw(names, namespaceKeyToDeltaKey('x'), JSON.stringify(corrupt));
  await putRaw(names, namespaceKeyToKvKey('y'), 'not an envelope');
  await putRaw(names, namespaceKeyToKvKey('z'), JSON.stringify({ ...corrupt, namespace: 'z' }));
  const good = deltaOf('x', 1, 3);
  await publisher.publishDelta(good);
  await until(() => entries.length === 3, 'the entries after the bad ones');

  t.deepEqual(entries.map(describe), ['hydration x@1', 'delta x@2/1', 'delta x@3/1']);
  const [, bad, next] = entries;
  if (bad?.kind !== 'delta' || next?.kind !== 'delta') return t.fail();
  await t.throwsAsync(bad.read(), { instanceOf: EnvelopeError, message: /gzip/ });
  t.deepEqual(await next.read(), good);
  const skipped = logger.lines.filter((l) => l.level === 'warn' && l.msg === 'unreadable snapshot envelope skipped');
  t.deepEqual(
    skipped.map((l) => (l.obj as { key: string }).key),
    [namespaceKeyToKvKey('y'), namespaceKeyToKvKey('z')],
    'not an envelope; a delta under a hydration key',
  );
});

test("onEntry's promise is awaited before the next entry, and a throwing onEntry does not stop the watch", async (t) => {
  const names = ownNames(t);
  const logger = recordingLogger();
  const publisher = openTestBus(names);
  const watcher = openTestBus(names, { logger });
  t.teardown(() => Promise.all([publisher.close(), watcher.close()]).then(() => undefined));
  for (let revision = 1; revision <= 5; revision++) await publisher.publishHydration(snapshotOf(documentOf(`ns-${revision}`), revision));

  const log: string[] = [];
  let inFlight = 0;
  let overlapped = false;
  let synced = false;
  await watcher.watch(
    async (entry) => {
      if (entry.kind === 'delete') return;
      overlapped ||= inFlight > 0;
      inFlight++;
      log.push(`start ${entry.namespaceKey}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight--;
      if (entry.namespaceKey === 'ns-2') throw new Error('handler failed');
      log.push(`end ${entry.namespaceKey}`);
    },
    () => {
      log.push('synced');
      synced = true;
    },
  );
  await until(() => synced, 'initial sync');
  t.false(overlapped);
  t.deepEqual(log, ['start ns-1', 'end ns-1', 'start ns-2', 'start ns-3', 'end ns-3', 'start ns-4', 'end ns-4', 'start ns-5', 'end ns-5', 'synced']);
  t.true(logger.lines.some((l) => l.level === 'error' && l.msg === 'snapshot watcher failed on an entry'));
});

test('watching an empty bucket is synced at once, and only once', async (t) => {
  const names = ownNames(t);
  const watcher = openTestBus(names);
  const publisher = openTestBus(names);
  t.teardown(() => Promise.all([publisher.close(), watcher.close()]).then(() => undefined));
  const events: string[] = [];
  let synced = 0;
  await watcher.watch(
    (entry) => void events.push(describe(entry)),
    () => {
      events.push('synced');
      synced++;
    },
  );
  await until(() => synced > 0, 'initial sync');
  t.deepEqual(events, ['synced'], 'nothing to deliver before the sync');
  // The first live entry comes after any second sync would have.
  await publisher.publishHydration(snapshotOf(documentOf('later'), 1));
  await until(() => events.length === 2, 'the live entry');
  t.deepEqual(events, ['synced', 'hydration later@1']);
  t.is(synced, 1);
});
