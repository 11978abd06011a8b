/**
 * SnapshotVersion.hydrateInSlices: the version `hydrate` makes, reusing what the held version
 * already compiled, without holding up the event loop for a 10,000-flag namespace.
 */
import test from 'ava';
import { evaluateBoolean, evaluateVariant, SnapshotInvalidError } from '@ensign/engine';
import type { NamespaceSnapshot, SnapshotFlag } from '@ensign/engine';
import { SnapshotFollower, SnapshotMismatchError, SnapshotVersion, snapshotChecksum } from '@ensign/snapshots';
import type { VersionHolder } from '@ensign/snapshots';
import { describeDelays, eventLoopDelays, mixedSnapshotFlags } from '@ensign/testkit';

const OPTIONS = { hash: 'crc32' as const };
const ENV = { now: () => Date.parse('2026-06-01T00:00:00Z') };
const CONTEXTS: Array<Record<string, string>> = [{}, { plan: 'pro', seats: '12' }, { plan: 'team', country: 'de', beta: 'true' }, { email: 'a@corp.example', age_days: '3' }];

/** What the bucket hands a follower: the snapshot as parsed from its JSON. */
const published = (v: SnapshotVersion): NamespaceSnapshot => JSON.parse(JSON.stringify(v.snapshot)) as NamespaceSnapshot;

/** `flags` with every `step`-th flag changed (renamed, toggled). */
const changed = (flags: readonly SnapshotFlag[], step: number): SnapshotFlag[] =>
  flags.filter((_, i) => i % step === 0).map((f) => ({ ...f, name: `${f.name} (renamed)`, enabled: !f.enabled, updatedAt: '2026-02-01T00:00:00.000Z' }));

function sameAnswers(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, a: SnapshotVersion, b: SnapshotVersion): void {
  for (const flag of a.snapshot.document.flags) {
    for (const [i, context] of CONTEXTS.entries()) {
      const input = { flagKey: flag.key, entityId: `entity-${i}`, context };
      const evaluate = flag.type === 'VARIANT_FLAG_TYPE' ? evaluateVariant : evaluateBoolean;
      t.deepEqual(evaluate(a.compiled, input, ENV), evaluate(b.compiled, input, ENV), flag.key);
    }
  }
}

const base = SnapshotVersion.build('ns', 1, mixedSnapshotFlags(600), OPTIONS);
const next = base.next(2, changed(base.snapshot.document.flags, 7), [base.snapshot.document.flags[3]!.key]);

test('with or without a held version, it makes the version hydrate makes', async (t) => {
  const whole = SnapshotVersion.hydrate(published(next), OPTIONS);
  for (const held of [undefined, base]) {
    const sliced = await SnapshotVersion.hydrateInSlices(published(next), OPTIONS, held);
    t.is(sliced.snapshot.checksum, whole.snapshot.checksum);
    t.is(JSON.stringify(sliced.snapshot), JSON.stringify(whole.snapshot));
    t.is(sliced.heldBytes, whole.heldBytes);
    t.deepEqual([...sliced.compiled.flags.keys()], [...whole.compiled.flags.keys()]);
    sameAnswers(t, sliced, whole);
    // Later versions are made from it as from hydrate's.
    const after = (v: SnapshotVersion) => v.next(3, changed(v.snapshot.document.flags, 5), []).snapshot.checksum;
    t.is(after(sliced), after(whole));
  }
});

test('unchanged flags keep the held compiled flags; changed ones are compiled anew', async (t) => {
  const sliced = await SnapshotVersion.hydrateInSlices(published(next), OPTIONS, base);
  const renamed = new Set(changed(base.snapshot.document.flags, 7).map((f) => f.key));
  for (const [key, compiled] of sliced.compiled.flags) {
    if (renamed.has(key)) t.not<unknown, unknown>(compiled, base.compiled.flags.get(key), key);
    else t.is<unknown, unknown>(compiled, base.compiled.flags.get(key), key);
  }
  t.is(sliced.flag('flag-00001'), base.flag('flag-00001'), 'the held flag object stands in for its equal');
});

test('a flag whose JSON differs only in key order is not taken for the held one', async (t) => {
  const [first, ...rest] = base.snapshot.document.flags;
  const { key, name, ...others } = first!;
  const reordered = { name, key, ...others } as SnapshotFlag;
  const document = { namespace: { key: 'ns' }, flags: [reordered, ...rest] };
  const whole = SnapshotVersion.build('ns', 2, document.flags, OPTIONS);
  const snapshot: NamespaceSnapshot = { namespaceKey: 'ns', revision: 2, checksum: whole.snapshot.checksum, document };
  const sliced = await SnapshotVersion.hydrateInSlices(snapshot, OPTIONS, base);
  t.is(sliced.snapshot.checksum, SnapshotVersion.hydrate(snapshot, OPTIONS).snapshot.checksum);
  t.not(sliced.compiled.flags.get(key), base.compiled.flags.get(key));
});

test('what hydrate refuses it refuses alike', async (t) => {
  const wrongSum = { ...published(next), checksum: '0'.repeat(64) };
  await t.throwsAsync(SnapshotVersion.hydrateInSlices(wrongSum, OPTIONS, base), { instanceOf: SnapshotMismatchError });

  // The checksum right, flags invalid (a bad type, a duplicate key): the same problems, in the same order.
  const broken = published(next);
  (broken.document.flags[5] as unknown as Record<string, unknown>)['type'] = 'NO_SUCH_TYPE';
  broken.document.flags.push({ ...broken.document.flags[0]! });
  const invalid = { ...broken, checksum: snapshotChecksum(broken.document) };
  const whole = t.throws(() => SnapshotVersion.hydrate(invalid, OPTIONS), { instanceOf: SnapshotInvalidError });
  t.true((whole?.problems.length ?? 0) >= 2);
  for (const held of [undefined, base]) {
    const sliced = await t.throwsAsync(SnapshotVersion.hydrateInSlices(invalid, OPTIONS, held), { instanceOf: SnapshotInvalidError });
    t.deepEqual(sliced?.problems, whole?.problems);
  }
});

class OneHolder implements VersionHolder {
  constructor(public version: SnapshotVersion | undefined) {}
  peek = () => this.version;
  offer(version: SnapshotVersion): boolean {
    this.version = version;
    return true;
  }
  drop = (): void => undefined;
  wants = (): boolean => true;
}

// A 10,000-flag hydration taken in one block holds the event loop for over 100 ms even on a quiet
// machine. In slices of 5 ms the longest block, in main-thread CPU (10 ms ticks), stays far under
// the first bound; where that cannot be read, the wall-clock delay, which load stretches, is held
// to the second.
const MAX_BLOCK_CPU_MS = 40;
const MAX_DELAY_MS = 60;

test.serial('a 10,000-flag hydration is taken without blocking the event loop, held before or not', async (t) => {
  const flags = mixedSnapshotFlags(10_000);
  const held = SnapshotVersion.build('large', 1, flags, OPTIONS);
  const target = held.next(2, changed(flags, 97), []);
  const snapshot = published(target);
  const none = () => undefined;
  for (const start of [held, undefined]) {
    let holder = new OneHolder(start);
    const delays = await eventLoopDelays(5, async () => {
      holder = new OneHolder(start);
      const bucket = { watch: async () => ({ stop: async () => undefined }), get: async () => undefined };
      const follower = new SnapshotFollower({ bucket, holder, compile: OPTIONS, logger: { error: none, warn: none, info: none, debug: none } });
      await follower.take({ kind: 'hydration', namespaceKey: 'large', revision: 2, read: async () => snapshot });
    });
    t.log(`${start === undefined ? 'not held before' : 'previous version held'}: longest per run ${describeDelays(delays)}`);
    t.is(holder.version?.snapshot.checksum, target.snapshot.checksum);
    if (delays.longestBlockCpuMs !== undefined) t.true(delays.longestBlockCpuMs < MAX_BLOCK_CPU_MS, `a block of ${delays.longestBlockCpuMs} ms of CPU`);
    else t.true(delays.maxDelayMs < MAX_DELAY_MS, `event loop held up ${delays.maxDelayMs} ms`);
  }
});
