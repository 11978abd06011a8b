/**
 * Schedules, validity windows and ramps: a flag's state at each of its boundaries and one
 * millisecond either side, and the clock read only for flags that have them, once per call.
 */
import test from 'ava';
import { compileSnapshot, evaluateBatch, evaluateBoolean, evaluateVariant, flagBoundaries, flagEnabled } from '@ensign/engine';
import type { SnapshotFlag, SnapshotRollout } from '@ensign/engine';
import { at, booleanFlag, countingClock, dist, doc, iso, rule, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');
const HOUR = 3_600_000;
const everyone = segment('everyone');

const variantAt = (flag: SnapshotFlag, ms: number, entityId = 'e') =>
  evaluateVariant(compileSnapshot(doc(flag), { hash: 'crc32' }), { flagKey: flag.key, entityId, context: {} }, at(ms));
const booleanAt = (flag: SnapshotFlag, ms: number, entityId = 'e') =>
  evaluateBoolean(compileSnapshot(doc(flag), { hash: 'crc32' }), { flagKey: flag.key, entityId, context: {} }, at(ms));

const windowed = variantFlag('w', [{ ...rule(1, [everyone], [dist('new', 100)]), validFrom: iso(T), validUntil: iso(T + HOUR) }], { defaultVariant: { key: 'old' } });

for (const [ms, variantKey, match] of [
  [T - 1, 'old', false],
  [T, 'new', true],
  [T + HOUR - 1, 'new', true],
  [T + HOUR, 'old', false],
] as const) {
  test(`a rule's window at ${iso(ms)}: ${variantKey}`, (t) => {
    t.like(variantAt(windowed, ms), { variantKey, match, reason: match ? 'MATCH_EVALUATION_REASON' : 'DEFAULT_EVALUATION_REASON' });
  });
}

test('a rule outside its window gives way to the next rule', (t) => {
  const flag = variantFlag('w', [
    { ...rule(1, [everyone], [dist('early', 100)]), validUntil: iso(T) },
    rule(2, [everyone], [dist('late', 100)]),
  ]);
  t.like(variantAt(flag, T - 1), { variantKey: 'early' });
  t.like(variantAt(flag, T), { variantKey: 'late' });
});

test('a rollout\'s window, on a threshold and on a segment rollout', (t) => {
  const flag = booleanFlag('b', [{ ...segmentRollout(1, [everyone], false), validFrom: iso(T) }, { ...threshold(2, 100, true), validUntil: iso(T + HOUR) }], false);
  t.deepEqual(booleanAt(flag, T - 1), { enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
  t.deepEqual(booleanAt(flag, T), { enabled: false, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['everyone'] });
  const thresholdOnly = booleanFlag('b', [{ ...threshold(1, 100, true), validUntil: iso(T + HOUR) }], false);
  t.like(booleanAt(thresholdOnly, T + HOUR - 1), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  t.like(booleanAt(thresholdOnly, T + HOUR), { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
});

// crc32: test-entity/test-flag has threshold bucket 65 (Flipt's vector), so it is in at 66 % and out at 65 %.
const ramped: SnapshotRollout = {
  ...threshold(1, 10, true),
  threshold: { percentage: 10, value: true, ramp: [{ at: iso(T), percentage: 65 }, { at: iso(T + HOUR), percentage: 66 }, { at: iso(T + 2 * HOUR), percentage: 100 }] },
};
const rampFlag = booleanFlag('test-flag', [ramped], false);

for (const [ms, enabled] of [
  [T - 1, false],
  [T, false],
  [T + HOUR - 1, false],
  [T + HOUR, true],
  [T + 2 * HOUR + 1, true],
] as const) {
  test(`a ramp at ${iso(ms)}: bucket 65 is ${enabled ? 'in' : 'out'}`, (t) => {
    t.like(booleanAt(rampFlag, ms, 'test-entity'), { enabled });
  });
}

test('a ramp moves the share of entities with it', (t) => {
  const compiled = compileSnapshot(doc(booleanFlag('r', [{ ...ramped, threshold: { ...ramped.threshold!, ramp: [{ at: iso(T), percentage: 50 }] } }], false)), { hash: 'murmur3' });
  const share = (ms: number) => {
    let on = 0;
    for (let i = 0; i < 10_000; i++) if ((evaluateBoolean(compiled, { flagKey: 'r', entityId: `user-${i}`, context: {} }, at(ms)) as { enabled: boolean }).enabled) on++;
    return on / 10_000;
  };
  t.true(Math.abs(share(T - 1) - 0.1) < 0.02);
  t.true(Math.abs(share(T) - 0.5) < 0.02);
});

const scheduled = (flag: SnapshotFlag): SnapshotFlag => ({ ...flag, schedules: [{ at: iso(T), enabled: true }, { at: iso(T + HOUR), enabled: false }] });

for (const [ms, enabled] of [
  [T - 1, false],
  [T, true],
  [T + HOUR - 1, true],
  [T + HOUR, false],
] as const) {
  test(`schedules at ${iso(ms)}: ${enabled ? 'enabled' : 'disabled'}`, (t) => {
    t.like(booleanAt(scheduled(booleanFlag('s', [], false)), ms), { enabled, reason: 'DEFAULT_EVALUATION_REASON' });
    const variant = scheduled(variantFlag('v', [rule(1, [everyone], [dist('on', 100)])], { enabled: false }));
    t.like(variantAt(variant, ms), enabled ? { match: true, variantKey: 'on' } : { match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON' });
    t.is(flagEnabled(compileSnapshot(doc(variant), { hash: 'crc32' }).flags.get('v')!, at(ms)), enabled);
  });
}

test('of two schedules at the same instant the later listed wins', (t) => {
  const flag = { ...booleanFlag('s', [], false), schedules: [{ at: iso(T), enabled: true }, { at: iso(T), enabled: false }] };
  t.like(booleanAt(flag, T), { enabled: false });
});

test('times with an offset or a fraction of a millisecond take effect at the instant they name, rounded up to the millisecond', (t) => {
  const offset = variantFlag('o', [{ ...rule(1, [everyone], [dist('on', 100)]), validFrom: '2026-03-01T10:00:00+01:00' }]);
  t.like(variantAt(offset, T - 1), { match: false });
  t.like(variantAt(offset, T), { match: true });
  const fraction = variantFlag('f', [{ ...rule(1, [everyone], [dist('on', 100)]), validFrom: '2026-03-01T09:00:00.0005Z' }]);
  t.like(variantAt(fraction, T), { match: false });
  t.like(variantAt(fraction, T + 1), { match: true });
});

test('flagBoundaries: every schedule, window edge and ramp step, sorted and distinct', (t) => {
  const flag: SnapshotFlag = {
    ...booleanFlag('b', [ramped, { ...threshold(2, 5), validFrom: iso(T), validUntil: iso(T + 3 * HOUR) }]),
    schedules: [{ at: iso(T + HOUR), enabled: false }],
  };
  t.deepEqual(flagBoundaries(flag), [T, T + HOUR, T + 2 * HOUR, T + 3 * HOUR]);
  t.deepEqual(flagBoundaries(booleanFlag('plain', [threshold(1, 5)])), []);
});

test('the clock is not read for a flag without schedules, windows or ramps', (t) => {
  const compiled = compileSnapshot(doc(booleanFlag('plain', [threshold(1, 50)]), variantFlag('v', [rule(1, [everyone], [dist('a', 100)])])), { hash: 'murmur3' });
  const clock = countingClock(T);
  evaluateBoolean(compiled, { flagKey: 'plain', entityId: 'e', context: {} }, clock);
  evaluateVariant(compiled, { flagKey: 'v', entityId: 'e', context: {} }, clock);
  evaluateBatch(() => compiled, [{ namespaceKey: '', flagKey: 'plain', entityId: 'e', context: {} }], clock);
  t.is(clock.reads, 0);
});

test('the clock is read once per call, however many timed flags it reaches', (t) => {
  const compiled = compileSnapshot(doc(windowed, scheduled(booleanFlag('s', [], false)), { ...rampFlag, prerequisites: [{ flagKey: 's', enabled: true }] }), { hash: 'crc32' });
  const once = (call: (clock: ReturnType<typeof countingClock>) => unknown) => {
    const clock = countingClock(T);
    call(clock);
    return clock.reads;
  };
  t.is(once((clock) => evaluateVariant(compiled, { flagKey: 'w', entityId: 'e', context: {} }, clock)), 1);
  t.is(once((clock) => evaluateBoolean(compiled, { flagKey: 'test-flag', entityId: 'e', context: {} }, clock)), 1);
  const items = ['w', 's', 'test-flag', 'w'].map((flagKey) => ({ namespaceKey: '', flagKey, entityId: 'e', context: {} }));
  t.is(once((clock) => evaluateBatch(() => compiled, items, clock)), 1);
});
