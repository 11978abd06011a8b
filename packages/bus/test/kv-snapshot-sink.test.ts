import test from 'ava';
import type { NamespaceSnapshot } from '@ensign/engine';
import { KvSnapshotSink } from '../src/index.js';
import { destroyNames, freshNames, openTestBus, recordingLogger } from './helpers/nats.js';
import { documentOf, snapshotOf } from './helpers/snapshots.js';

const names = freshNames();
const bus = openTestBus(names);

test.after.always(async () => {
  await bus.close();
  await destroyNames(names);
});

/** A bus that records calls, takes a while per call, and notes any overlap within a namespace. */
function slowBus(failFor = new Set<number>()) {
  const calls: string[] = [];
  const inFlight = new Set<string>();
  let overlaps = 0;
  const run = async (namespaceKey: string, label: string, revision: number): Promise<void> => {
    if (inFlight.has(namespaceKey)) overlaps++;
    inFlight.add(namespaceKey);
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
    inFlight.delete(namespaceKey);
    calls.push(`${namespaceKey}:${label}${revision}`);
    if (failFor.has(revision)) throw new Error(`publish of ${revision} failed`);
  };
  return {
    calls,
    overlaps: () => overlaps,
    publish: (s: NamespaceSnapshot) => run(s.namespaceKey, 'put', s.revision),
    remove: (namespaceKey: string, revision: number) => run(namespaceKey, 'remove', revision),
  };
}

test('operations of one namespace never overlap or reorder; other namespaces run alongside', async (t) => {
  const fake = slowBus();
  const sink = new KvSnapshotSink(fake);
  for (let revision = 1; revision <= 30; revision++) {
    sink.put(snapshotOf(documentOf('a'), revision));
    sink.put(snapshotOf(documentOf('b'), revision));
    if (revision % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  sink.remove('a', 31);
  await sink.settled();
  t.is(fake.overlaps(), 0);
  for (const ns of ['a', 'b']) {
    const revisions = fake.calls.filter((c) => c.startsWith(`${ns}:`)).map((c) => Number(/(\d+)$/.exec(c)?.[1]));
    t.deepEqual(revisions, [...revisions].sort((x, y) => x - y), `${ns} in order`);
  }
  t.is(fake.calls.filter((c) => c.startsWith('a:')).at(-1), 'a:remove31');
  t.is(fake.calls.filter((c) => c.startsWith('b:')).at(-1), 'b:put30');
  t.deepEqual(sink.lagging(), []);
});

test('a failed publish never throws into the caller, is logged, and lags until a later one succeeds', async (t) => {
  const fake = slowBus(new Set([2]));
  const logger = recordingLogger();
  const sink = new KvSnapshotSink(fake, logger);
  t.notThrows(() => sink.put(snapshotOf(documentOf('x'), 1)));
  await sink.settled();
  sink.put(snapshotOf(documentOf('x'), 2));
  await sink.settled();
  t.deepEqual(sink.lagging(), ['x']);
  t.is(logger.lines.filter((l) => l.level === 'error').length, 1);
  t.like(logger.lines[0]?.obj, { namespaceKey: 'x', operation: 'put' });
  sink.put(snapshotOf(documentOf('x'), 3));
  await sink.settled();
  t.deepEqual(sink.lagging(), []);
});

test('through a real bucket, a burst of puts then a delete and a re-creation ends as the last operation says', async (t) => {
  const sink = new KvSnapshotSink(bus);
  for (let revision = 1; revision <= 25; revision++) sink.put(snapshotOf(documentOf('burst'), revision));
  await sink.settled();
  t.is((await bus.get('burst'))?.revision, 25);
  sink.remove('burst', 26);
  await sink.settled();
  t.is(await bus.get('burst'), undefined);
  const last = snapshotOf(documentOf('burst'), 27);
  sink.put(last);
  await sink.settled();
  t.deepEqual(await bus.get('burst'), last);
  t.deepEqual(sink.lagging(), []);
});
