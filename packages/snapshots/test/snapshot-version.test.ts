/** SnapshotVersion: a version made flag by flag equals one built whole, and deltas apply only where they hold. */
import test from 'ava';
import { evaluateVariant } from '@ensign/engine';
import type { SnapshotFlag } from '@ensign/engine';
import { SnapshotMismatchError, SnapshotVersion, snapshotChecksum } from '@ensign/snapshots';
import { seeded as prng } from '@ensign/testkit';
import { booleanFlag, variantFlag } from './flags.js';

const OPTIONS = { hash: 'murmur3' as const };
const ENV = { now: () => 0 };

test('the checksum does not depend on the order flags are given in, and changes with any flag', (t) => {
  const a = SnapshotVersion.build('ns', 1, [booleanFlag('a', 10), booleanFlag('b', 20)], OPTIONS);
  const b = SnapshotVersion.build('ns', 1, [booleanFlag('b', 20), booleanFlag('a', 10)], OPTIONS);
  const c = SnapshotVersion.build('ns', 1, [booleanFlag('b', 21), booleanFlag('a', 10)], OPTIONS);
  t.is(a.snapshot.checksum, b.snapshot.checksum);
  t.not(a.snapshot.checksum, c.snapshot.checksum);
  t.is(snapshotChecksum(a.snapshot.document), a.snapshot.checksum);
  t.deepEqual(a.snapshot.document.flags.map((f) => f.key), ['a', 'b']);
});

test('flags are in creation order, then key order, whichever way they arrive', (t) => {
  let v = SnapshotVersion.build('ns', 1, [], OPTIONS);
  v = v.next(2, [booleanFlag('z', 1, '2026-01-02T00:00:00.000Z')], []);
  v = v.next(3, [booleanFlag('b', 1, '2026-01-01T00:00:00.000Z'), booleanFlag('a', 1, '2026-01-01T00:00:00.000Z')], []);
  v = v.next(4, [booleanFlag('y', 1, '2026-01-03T00:00:00.000Z')], []);
  t.deepEqual(v.snapshot.document.flags.map((f) => f.key), ['a', 'b', 'z', 'y']);
});

test('a long random sequence of changes gives the same document, checksum and answers as building it whole', (t) => {
  const next = prng(11);
  const model = new Map<string, SnapshotFlag>();
  let v = SnapshotVersion.build('ns', 1, [], OPTIONS);
  for (let revision = 2; revision < 600; revision++) {
    const put: SnapshotFlag[] = [];
    const removed: string[] = [];
    for (let n = Math.floor(next() * 3); n > 0; n--) {
      const key = `f${Math.floor(next() * 80)}`;
      // A re-created flag keeps its key but gets a new creation time.
      const createdAt = model.has(key) && next() < 0.8 ? (model.get(key) as SnapshotFlag).createdAt : new Date(Date.UTC(2026, 0, 1, 0, 0, revision)).toISOString();
      const flag = next() < 0.5 ? booleanFlag(key, Math.floor(next() * 100), createdAt) : variantFlag(key, `v${revision}`, createdAt);
      put.push(flag);
    }
    for (let n = Math.floor(next() * 2); n > 0; n--) removed.push(`f${Math.floor(next() * 80)}`);
    for (const key of removed) if (!put.some((f) => f.key === key)) model.delete(key);
    for (const flag of put) model.set(flag.key, flag);
    v = v.next(revision, put, removed);
  }
  const whole = SnapshotVersion.build('ns', v.revision, [...model.values()], OPTIONS);
  t.deepEqual(v.snapshot, whole.snapshot);
  t.is(v.heldBytes, whole.heldBytes);
  for (const flag of model.values()) {
    if (flag.type !== 'VARIANT_FLAG_TYPE') continue;
    t.deepEqual(evaluateVariant(v.compiled, { flagKey: flag.key, entityId: 'e', context: {} }, ENV), evaluateVariant(whole.compiled, { flagKey: flag.key, entityId: 'e', context: {} }, ENV));
  }
});

test('a cumulative delta applies to any version from its base, and is refused outside that span', (t) => {
  const v1 = SnapshotVersion.build('ns', 1, [booleanFlag('a', 1), booleanFlag('b', 1)], OPTIONS);
  const v2 = v1.next(2, [booleanFlag('a', 2)], []);
  const v3 = v2.next(3, [booleanFlag('c', 3)], ['b']);
  const delta = v3.deltaFrom(1, ['a', 'b', 'c']);
  t.deepEqual(delta.removed, ['b']);
  t.deepEqual(v1.apply(delta).snapshot, v3.snapshot);
  t.deepEqual(v2.apply(delta).snapshot, v3.snapshot);
  const base = t.throws(() => v3.apply(delta), { instanceOf: SnapshotMismatchError });
  t.is(base?.reason, 'base');
  const later = v3.deltaFrom(2, ['b', 'c']);
  t.is(t.throws(() => v1.apply(later), { instanceOf: SnapshotMismatchError })?.reason, 'base');
});

test('a delta whose result does not match its checksum is refused and the version is unchanged', (t) => {
  const v1 = SnapshotVersion.build('ns', 1, [booleanFlag('a', 1)], OPTIONS);
  const delta = v1.next(2, [booleanFlag('a', 2)], []).deltaFrom(1, ['a']);
  const corrupt = { ...delta, flags: [booleanFlag('a', 3)] };
  t.is(t.throws(() => v1.apply(corrupt), { instanceOf: SnapshotMismatchError })?.reason, 'checksum');
  t.is(v1.revision, 1);
  t.is(v1.snapshot.document.flags[0]?.rollouts[0]?.threshold?.percentage, 1);
});

test('hydrating checks the checksum', (t) => {
  const v = SnapshotVersion.build('ns', 4, [booleanFlag('a', 1)], OPTIONS);
  t.deepEqual(SnapshotVersion.hydrate(v.snapshot, OPTIONS).snapshot, v.snapshot);
  const tampered = { ...v.snapshot, document: { ...v.snapshot.document, flags: [booleanFlag('a', 2)] } };
  t.is(t.throws(() => SnapshotVersion.hydrate(tampered, OPTIONS), { instanceOf: SnapshotMismatchError })?.reason, 'checksum');
});

test('a write that changes nothing evaluation sees moves the revision and keeps the checksum', (t) => {
  const v1 = SnapshotVersion.build('ns', 1, [booleanFlag('a', 1)], OPTIONS);
  const v2 = v1.at(2);
  t.is(v2.revision, 2);
  t.is(v2.snapshot.checksum, v1.snapshot.checksum);
  t.deepEqual(v1.apply(v2.deltaFrom(1, [])).snapshot, v2.snapshot);
});
