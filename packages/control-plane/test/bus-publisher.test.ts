/** BusPublisher: hydration first, then cumulative deltas, compaction when deltas outweigh the hydration, bursts folded. */
import test from 'ava';
import type { NamespaceSnapshot, SnapshotFlag } from '@ensign/engine';
import { type SnapshotDelta, SnapshotVersion } from '@ensign/snapshots';
import { BusPublisher, type PublishingBus } from '../src/snapshots/bus-publisher.js';
import { DeltaTracker } from '../src/snapshots/delta-tracker.js';
import { eventually } from '@ensign/testkit';
import { capturingLogger } from './snapshot-fakes.js';

const OPTIONS = { hash: 'murmur3' as const };

function flag(key: string, enabled = true): SnapshotFlag {
  return { key, name: key, description: '', enabled, type: 'BOOLEAN_FLAG_TYPE', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', rules: [], rollouts: [] };
}

/** A bucket that records what it was given; bytes are the JSON length of what was sent. */
class RecordingBus implements PublishingBus {
  readonly sent: Array<{ kind: 'hydration'; snapshot: NamespaceSnapshot } | { kind: 'delta'; delta: SnapshotDelta }> = [];
  /** Deltas sent live only. */
  readonly live: SnapshotDelta[] = [];
  failNext = false;
  refuseDeltas = false;
  /** Publishes waiting for `stall()`'s release, as while the bucket's stream elects a leader. */
  waiting = 0;
  private gate: Promise<void> | undefined;
  /** Holds every bucket write until the returned function is called. */
  stall(): () => void {
    let release!: () => void;
    this.gate = new Promise((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }
  private async wait(): Promise<void> {
    if (this.gate === undefined) return;
    this.waiting++;
    await this.gate;
    this.waiting--;
  }
  async publishLive(delta: SnapshotDelta): Promise<number | undefined> {
    this.live.push(delta);
    return JSON.stringify(delta).length;
  }
  async publishHydration(snapshot: NamespaceSnapshot): Promise<number | undefined> {
    await this.wait();
    if (this.failNext) {
      this.failNext = false;
      throw new Error('NATS unreachable');
    }
    this.sent.push({ kind: 'hydration', snapshot });
    return JSON.stringify(snapshot).length;
  }
  async publishDelta(delta: SnapshotDelta): Promise<number | undefined> {
    await this.wait();
    if (this.refuseDeltas) throw new Error('too large');
    this.sent.push({ kind: 'delta', delta });
    return JSON.stringify(delta).length;
  }
  async remove(): Promise<void> {}
  kinds(): string[] {
    return this.sent.map((s) => s.kind);
  }
}

function setup() {
  const bus = new RecordingBus();
  const tracker = new DeltaTracker();
  let current = SnapshotVersion.build('ns', 1, Array.from({ length: 40 }, (_, i) => flag(`f${i}`)), OPTIONS);
  tracker.unknownUpTo('ns', 1);
  const publisher = new BusPublisher({ bus, tracker, current: () => current, logger: capturingLogger().logger });
  /** A write at the next revision switching `key` off, as the pipeline records it. */
  const change = (key: string): void => {
    current = current.next(current.revision + 1, [flag(key, false)], []);
    tracker.wrote('ns', current.revision, [key]);
  };
  const write = (key: string): void => {
    change(key);
    publisher.publish('ns');
  };
  return { bus, tracker, publisher, change, write, current: () => current };
}

test('the first publish is a hydration; later ones are deltas naming every flag changed since it', async (t) => {
  const { bus, publisher, write } = setup();
  publisher.publish('ns');
  await publisher.settled();
  write('f1');
  await publisher.settled();
  write('f2');
  await publisher.settled();
  t.deepEqual(bus.kinds(), ['hydration', 'delta', 'delta']);
  const last = bus.sent[2];
  if (last?.kind !== 'delta') throw new Error('expected a delta');
  t.is(last.delta.baseRevision, 1);
  t.is(last.delta.revision, 3);
  t.deepEqual(last.delta.flags.map((f) => f.key).sort(), ['f1', 'f2'], 'cumulative since the hydration');
  t.is(publisher.counts.deltas, 2);
});

test('once the deltas sent add up to the hydration, the next publish is a hydration again', async (t) => {
  const { bus, publisher, write } = setup();
  publisher.publish('ns');
  await publisher.settled();
  for (let i = 0; i < 40; i++) {
    write(`f${i}`);
    await publisher.settled();
  }
  const kinds = bus.kinds();
  const hydrations = kinds.filter((k) => k === 'hydration').length;
  t.true(hydrations >= 2, `compacted (${kinds.join(',')})`);
  t.true(kinds.filter((k) => k === 'delta').length > hydrations, 'mostly deltas');
  const after = kinds.lastIndexOf('hydration');
  const next = bus.sent[after + 1];
  if (next !== undefined && next.kind === 'delta') t.is(next.delta.baseRevision, (bus.sent[after] as { snapshot: NamespaceSnapshot }).snapshot.revision, 'deltas start again from the new hydration');
});

test('a compaction sends the delta of its changes first, so followers holding its base never decode the hydration', async (t) => {
  const { bus, publisher, change, write } = setup();
  publisher.publish('ns');
  await publisher.settled();
  write('f1');
  await publisher.settled();
  // A scheduled compaction of a revision already sent as a delta sends nothing more than the hydration.
  publisher.publish('ns', true);
  await publisher.settled();
  t.deepEqual(bus.kinds(), ['hydration', 'delta', 'hydration']);
  // One of a new revision sends its delta (from the base evaluators hold), then the hydration at the same revision.
  change('f2');
  publisher.publish('ns', true);
  await publisher.settled();
  t.deepEqual(bus.kinds().slice(3), ['delta', 'hydration']);
  const [delta, hydration] = bus.sent.slice(3);
  if (delta?.kind !== 'delta' || hydration?.kind !== 'hydration') throw new Error('expected a delta, then a hydration');
  t.is(delta.delta.baseRevision, 2);
  t.is(delta.delta.revision, hydration.snapshot.revision);
  t.is(delta.delta.checksum, hydration.snapshot.checksum);
  t.deepEqual(delta.delta.flags.map((f) => f.key), ['f2']);
});

test('a burst of writes folds into fewer publishes, the last one the newest version', async (t) => {
  const { bus, publisher, write, current } = setup();
  publisher.publish('ns');
  for (let i = 0; i < 10; i++) write(`f${i}`);
  await publisher.settled();
  t.true(bus.sent.length < 11, `${bus.sent.length} publishes for 11 versions`);
  const last = bus.sent.at(-1);
  t.is(last?.kind === 'delta' ? last.delta.revision : last?.snapshot.revision, current().revision);
});

test('writes made while a publish waits on the bucket go out live at once, each a delta from the hydration the bucket holds', async (t) => {
  const { bus, publisher, write, current } = setup();
  publisher.publish('ns');
  await publisher.settled();
  write('f1');
  await publisher.settled();
  t.deepEqual(bus.live, [], 'with nothing waiting, the publish itself is all (the bus sends its delta live too)');

  const release = bus.stall();
  write('f2');
  t.true(await eventually(() => bus.waiting === 1), 'its publish waits on the bucket');
  write('f3');
  write('f4');
  t.true(await eventually(() => bus.live.at(-1)?.revision === current().revision), 'the newest version went live meanwhile');
  t.true(bus.live.every((d) => d.baseRevision === 1), 'from the hydration every follower can hold');
  t.deepEqual(bus.live.at(-1)?.flags.map((f) => f.key).sort(), ['f1', 'f2', 'f3', 'f4']);
  t.deepEqual(bus.kinds(), ['hydration', 'delta'], 'nothing more reached the bucket');
  release();
  await publisher.settled();
  const last = bus.sent.at(-1);
  t.is(last?.kind === 'delta' ? last.delta.revision : last?.snapshot.revision, current().revision, 'and the bucket gets the newest once it takes writes');
});

test('a delta that cannot go goes as a hydration; a failed publish leaves the namespace lagging until the next succeeds', async (t) => {
  const { bus, publisher, write } = setup();
  publisher.publish('ns');
  await publisher.settled();
  bus.refuseDeltas = true;
  write('f1');
  await publisher.settled();
  t.deepEqual(bus.kinds(), ['hydration', 'hydration']);
  bus.refuseDeltas = false;
  bus.failNext = true;
  publisher.publish('ns', true);
  await publisher.settled();
  t.deepEqual(publisher.lagging(), ['ns']);
  t.is(publisher.counts.failures, 1);
  write('f2');
  await publisher.settled();
  t.deepEqual(publisher.lagging(), []);
});

test('the tracker names namespaces whose changes waited outside a hydration long enough', (t) => {
  let now = 1000;
  const tracker = new DeltaTracker(() => now);
  tracker.hydrated('a', 5);
  tracker.wrote('a', 6, ['x']);
  tracker.unknownUpTo('b', 3);
  now += 500;
  t.deepEqual(tracker.stale(1000), []);
  now += 600;
  t.deepEqual(tracker.stale(1000), ['a'], 'a namespace read whole at start-up is not compacted for that alone');
  tracker.hydrated('a', 6);
  t.deepEqual(tracker.stale(1000), []);
  t.false(tracker.knows(tracker.get('b')));
  tracker.hydrated('b', 3);
  t.true(tracker.knows(tracker.get('b')));
});
