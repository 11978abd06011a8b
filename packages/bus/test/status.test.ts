import test from 'ava';
import { createServer } from 'node:net';
import { connect } from 'nats';
import { type BucketEntry, type BusStatus, openDigestBus, openSnapshotBus } from '../src/index.js';
import { destroyNames, freshNames, fromBucket, NATS_URL, openTestBus, recordingLogger } from './helpers/nats.js';
import { deltaOf, documentOf, snapshotOf } from './helpers/snapshots.js';
import { TcpProxy } from '@ensign/testkit/tcp-proxy';
import { until } from './helpers/wait.js';

const names = freshNames();

test.after.always(async () => {
  await destroyNames(names);
});

/** Deletes every consumer of the bucket's stream, as a restarted server forgets its watchers' ephemeral consumers. */
async function forgetConsumers(bucket: string): Promise<number> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    const consumers = await jsm.consumers.list(`KV_${bucket}`).next();
    for (const consumer of consumers) await jsm.consumers.delete(`KV_${bucket}`, consumer.name);
    return consumers.length;
  } finally {
    await nc.close();
  }
}

test('a bus whose server is unreachable reports reconnecting, and closed after close', async (t) => {
  // Accepts and drops every connection, so each of the bus's attempts fails and is counted.
  let attempts = 0;
  const refusing = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
  const bus = openSnapshotBus({ url: `nats://127.0.0.1:${(refusing.address() as { port: number }).port}`, ...names });
  const statuses: BusStatus[] = [];
  bus.onStatus((status) => statuses.push(status));
  t.is(bus.status(), 'reconnecting');
  let synced = false;
  const watch = await bus.watch(
    () => undefined,
    () => (synced = true),
  );
  await until(() => attempts >= 3, 'the bus trying again after failed attempts');
  t.is(bus.status(), 'reconnecting');
  t.false(synced, 'not synced while nothing was read');
  await watch.stop();
  await bus.close();
  t.is(bus.status(), 'closed');
  t.deepEqual(statuses, ['closed']);
});

test('after an outage that lost the watch consumers, the watch delivers what it missed once NATS is back', async (t) => {
  const proxy = new TcpProxy(4222);
  await proxy.open();
  const logger = recordingLogger();
  const watcher = openSnapshotBus({ url: proxy.url('nats'), ...names, logger });
  const digestWatcher = openDigestBus({ url: proxy.url('nats'), bucket: names.bucket });
  const publisher = openTestBus(names);
  const digestPublisher = openDigestBus({ url: NATS_URL, bucket: names.bucket });
  t.teardown(async () => {
    await Promise.all([watcher.close(), digestWatcher.close(), publisher.close(), digestPublisher.close()]);
    await proxy.close();
  });
  const statuses: BusStatus[] = [];
  watcher.onStatus((status) => statuses.push(status));
  const seen: string[] = [];
  /** For each entry seen, how many status changes had been heard when it arrived. */
  const heardAfter: number[] = [];
  const describe = (e: BucketEntry) => (e.kind === 'delete' ? `delete ${e.namespaceKey}` : `${e.kind} ${e.namespaceKey}@${e.revision}`);
  let synced = 0;
  await watcher.watch(
    (entry) => {
      if (!fromBucket(entry)) return;
      seen.push(describe(entry));
      heardAfter.push(statuses.length);
    },
    () => synced++,
  );
  const digestSets: number[] = [];
  await digestWatcher.watchDigests((_digests, loadedAtMs) => digestSets.push(loadedAtMs));
  await publisher.publishHydration(snapshotOf(documentOf('outage'), 1));
  await publisher.publishHydration(snapshotOf(documentOf('doomed'), 1));
  await digestPublisher.publishDigests(new Map(), 1);
  await until(() => seen.length === 2 && digestSets.length === 1, 'the entries before the outage');
  t.is(watcher.status(), 'connected');

  const cutAt = Date.now();
  await proxy.close();
  await until(() => watcher.status() === 'reconnecting', 'reconnecting status');
  const lostSeenAt = Date.now();
  t.true((await forgetConsumers(names.bucket)) >= 2, 'the snapshot and digest watches had consumers');
  await publisher.publishDelta(deltaOf('outage', 1, 2));
  await publisher.publishHydration(snapshotOf(documentOf('during'), 1));
  await publisher.remove('doomed', 2);
  await digestPublisher.publishDigests(new Map(), 2);

  const restoredAt = Date.now();
  await proxy.open();
  await until(() => watcher.status() === 'connected', 'connected again');
  const backSeenAt = Date.now();
  await until(() => seen.length >= 5 && digestSets.length >= 2, 'the entries missed during the outage');
  t.log(`recovered in ${Date.now() - restoredAt} ms`);
  t.deepEqual(seen, ['hydration outage@1', 'hydration doomed@1', 'delta outage@2', 'hydration during@1', 'delete doomed'], 'each missed entry once, in order');
  t.deepEqual(heardAfter, [1, 1, 3, 3, 3], 'nothing arrived while cut off: the missed entries came after the return');
  t.deepEqual(digestSets, [1, 2], 'the digest watch resumes as well');
  t.is(synced, 1, 'synced once across the outage');

  t.deepEqual(statuses, ['connected', 'reconnecting', 'connected'], 'the first connection, the loss, the return');
  const lost = logger.lines.filter((l) => l.msg === 'NATS disconnected, reconnecting');
  const back = logger.lines.filter((l) => l.msg.startsWith('NATS reconnected after'));
  t.is(lost.length, 1);
  t.is(back.length, 1);
  const downMs = (back[0]?.obj as { downMs?: number }).downMs ?? -1;
  // The outage the log names lies between what the test saw of it: from the loss to the return.
  t.true(downMs >= restoredAt - lostSeenAt && downMs <= backSeenAt - cutAt, `down for ${downMs} ms`);

  await watcher.publishDelta(deltaOf('outage', 1, 3));
  t.is((await publisher.get('outage'))?.delta?.revision, 3, 'the reconnected bus publishes again');
  await until(() => seen.length === 6, 'a live entry after the outage');
  t.is(seen[5], 'delta outage@3');
});

test('a short outage that kept the consumers loses and repeats nothing', async (t) => {
  const own = freshNames();
  const proxy = new TcpProxy(4222);
  await proxy.open();
  const watcher = openSnapshotBus({ url: proxy.url('nats'), ...own });
  const publisher = openTestBus(own);
  t.teardown(async () => {
    await Promise.all([watcher.close(), publisher.close()]);
    await proxy.close();
    await destroyNames(own);
  });
  const revisions: number[] = [];
  await watcher.watch(
    (entry) => void (entry.kind === 'hydration' && revisions.push(entry.revision)),
    () => undefined,
  );
  await publisher.publishHydration(snapshotOf(documentOf('blip'), 1));
  await until(() => revisions.length === 1, 'first hydration');
  await proxy.close();
  await until(() => watcher.status() === 'reconnecting', 'reconnecting status');
  await publisher.publishHydration(snapshotOf(documentOf('blip'), 2));
  await proxy.open();
  await until(() => revisions.length >= 2, 'the missed hydration');
  await publisher.publishHydration(snapshotOf(documentOf('blip'), 3));
  await until(() => revisions.length >= 3, 'a live hydration');
  // A repeat of 2 or 3 would come before the next live entry.
  await publisher.publishHydration(snapshotOf(documentOf('blip'), 4));
  await until(() => revisions.includes(4), 'the next live hydration');
  t.deepEqual(revisions, [1, 2, 3, 4]);
});
