/**
 * Compactions of a 10,000-flag namespace through a real NATS bucket, with the event loop watched
 * (`monitorEventLoopDelay`): the control plane's publish of the hydration, and an evaluator's
 * follower taking one it did not hold. A compaction whose changes go as a delta first is skipped by
 * a follower holding the delta's base without being decoded.
 *
 * The bound is on the longest block in main-thread CPU where it can be read (Linux), which a loaded
 * machine does not stretch, else on the wall-clock delay (looser). Blocks are read in 10 ms ticks
 * and a major garbage collection counts as one, so the bound is not the 20 ms aim that
 * `npm run bench:compaction` measures; it catches a return to hydrating the whole document in one
 * block (a hundred milliseconds and more at this size).
 */
import test from 'ava';
import { openSnapshotBus, type SnapshotBus } from '@ensign/bus';
import type { SnapshotFlag } from '@ensign/engine';
import { InProcessSnapshotSource } from '@ensign/evaluator';
import { SnapshotFollower, SnapshotVersion } from '@ensign/snapshots';
import { describeDelays, eventLoopDelays, type EventLoopDelays, eventually, mixedSnapshotFlags, NATS_URL, testBucket } from '@ensign/testkit';

const NS = 'large';
const COMPILE = { hash: 'murmur3' as const };
const MAX_BLOCK_CPU_MS = 50;
const MAX_DELAY_MS = 250;

const bucket = testBucket();
const buses: SnapshotBus[] = [];
const followers: SnapshotFollower[] = [];
const none = () => undefined;
const quiet = { error: none, warn: none, info: none, debug: none };

test.after.always(async () => {
  await Promise.all(followers.map((f) => f.stop()));
  await Promise.all(buses.map((b) => b.close()));
  await bucket.drop();
});

const openBus = (): SnapshotBus => {
  const bus = openSnapshotBus({ url: NATS_URL, bucket: bucket.bucket, objectStore: bucket.objectStore, logger: quiet });
  buses.push(bus);
  return bus;
};

/** The longest block in CPU when known, else the delay, under its bound. */
function withinBounds(t: { true: (value: boolean, message: string) => void }, delays: EventLoopDelays): void {
  if (delays.longestBlockCpuMs !== undefined) t.true(delays.longestBlockCpuMs < MAX_BLOCK_CPU_MS, `a block of ${delays.longestBlockCpuMs} ms of CPU`);
  else t.true(delays.maxDelayMs < MAX_DELAY_MS, `event loop held up ${delays.maxDelayMs} ms`);
}

const flags = mixedSnapshotFlags(10_000);
const edited = (i: number): SnapshotFlag => {
  const flag = flags[(i * 97) % flags.length] as SnapshotFlag;
  return { ...flag, enabled: !flag.enabled, updatedAt: new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString() };
};

test.serial('compactions of 10,000 flags: publishing and taking them never block the event loop for long', async (t) => {
  const controlPlane = openBus();
  let version = SnapshotVersion.build(NS, 1, flags, COMPILE);
  await controlPlane.publishHydration(version.snapshot);

  // The control plane's part, with no follower in this process.
  let edits = 0;
  const publishing = await eventLoopDelays(5, async () => {
    version = version.next(version.revision + 1, [edited(++edits)], []);
    t.truthy(await controlPlane.publishHydration(version.snapshot));
  });
  t.log(`publishing a compaction: longest per run ${describeDelays(publishing)}`);
  withinBounds(t, publishing);

  // An evaluator holding the namespace takes compactions whose changes it did not hold.
  const source = new InProcessSnapshotSource();
  const follower = new SnapshotFollower({ bucket: openBus(), holder: source, compile: COMPILE, logger: quiet });
  followers.push(follower);
  await follower.start();
  t.true(await eventually(() => source.peek(NS)?.revision === version.revision), 'the evaluator holds the namespace');
  const taking = await eventLoopDelays(5, async () => {
    version = version.next(version.revision + 1, [edited(++edits)], []);
    const target = version.revision;
    const before = follower.counts.hydrations;
    await controlPlane.publishHydration(version.snapshot);
    if (!(await eventually(() => source.peek(NS)?.revision === target))) throw new Error(`revision ${target} never held`);
    t.is(follower.counts.hydrations, before + 1);
  });
  t.log(`publishing and taking a compaction: longest per run ${describeDelays(taking)}`);
  withinBounds(t, taking);
  t.is(source.peek(NS)?.snapshot.checksum, version.snapshot.checksum);

  // The delta first: the follower applies it and skips the hydration of the same revision unread.
  const base = version.revision;
  version = version.next(base + 1, [edited(++edits)], []);
  const { hydrations, deltas, stale } = follower.counts;
  await controlPlane.publishDelta(version.deltaFrom(base, [edited(edits).key]));
  await controlPlane.publishHydration(version.snapshot);
  // The delta arrives twice, on the live subject and from the bucket: one copy is applied and the
  // other is stale, and so is the hydration of the same revision.
  t.true(await eventually(() => follower.counts.stale >= stale + 2), `the hydration and the delta's second copy are skipped as stale (${follower.counts.stale - stale})`);
  t.deepEqual([follower.counts.hydrations, follower.counts.deltas, follower.counts.stale], [hydrations, deltas + 1, stale + 2]);
  t.is(source.peek(NS)?.snapshot.checksum, version.snapshot.checksum);
});
