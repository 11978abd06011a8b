/**
 * effectiveSnapshotFlag: a flag folded into Flipt's plain form at a time, for clients that evaluate
 * Flipt's document themselves; what it serves agrees with the engine wherever it can say it exactly.
 */
import test from 'ava';
import { compileSnapshot, documentBoundaries, effectiveSnapshotDocument, effectiveSnapshotFlag, evaluateBoolean, evaluateVariant } from '@ensign/engine';
import type { SnapshotDocument, SnapshotFlag, SnapshotPrerequisite } from '@ensign/engine';
import { at, booleanFlag, constraint, dist, doc, iso, rule, segment, segmentRollout, threshold, variantFlag } from './snapshot-builders.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');
const HOUR = 3_600_000;
const everyone = segment('everyone');
const pro = segment('pro', [constraint('STRING_CONSTRAINT_COMPARISON_TYPE', 'plan', 'eq', 'pro')]);
const ENSIGN_FIELDS = ['prerequisites', 'schedules', 'validFrom', 'validUntil', 'ramp'];

const requiring = (flag: SnapshotFlag, ...prerequisites: SnapshotPrerequisite[]): SnapshotFlag => ({ ...flag, prerequisites });
const byKey = (...flags: SnapshotFlag[]) => new Map(flags.map((f) => [f.key, f]));
const fold = (flag: SnapshotFlag, ms: number, ...others: SnapshotFlag[]) => effectiveSnapshotFlag(flag, byKey(flag, ...others), ms);
const ensignFieldsIn = (value: unknown): string[] => ENSIGN_FIELDS.filter((field) => JSON.stringify(value).includes(`"${field}":`));
const FAIL_CLOSED = [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 100, value: false } }];

test('a flag without Ensign\'s fields is returned as it is, and so is a document of them', (t) => {
  const flag = booleanFlag('b', [threshold(1, 50)]);
  t.is(fold(flag, T), flag);
  const document = doc(flag, variantFlag('v', [rule(1, [everyone], [dist('a', 100)])]));
  t.is(effectiveSnapshotDocument(document, T), document);
});

test('schedules give enabled, and are not shown', (t) => {
  const flag: SnapshotFlag = { ...booleanFlag('s', [], false), schedules: [{ at: iso(T), enabled: true }] };
  t.deepEqual(fold(flag, T - 1), booleanFlag('s', [], false));
  t.deepEqual(fold(flag, T), booleanFlag('s', [], true));
});

test('rules and rollouts outside their windows are left out, the windows not shown', (t) => {
  const flag = variantFlag('w', [
    { ...rule(1, [everyone], [dist('early', 100)]), validUntil: iso(T) },
    { ...rule(2, [everyone], [dist('late', 100)]), validFrom: iso(T) },
  ]);
  t.deepEqual(fold(flag, T - 1).rules, [rule(1, [everyone], [dist('early', 100)])]);
  t.deepEqual(fold(flag, T).rules, [rule(2, [everyone], [dist('late', 100)])]);
  const rollouts = booleanFlag('b', [{ ...threshold(1, 100), validFrom: iso(T), validUntil: iso(T + HOUR) }]);
  t.deepEqual(fold(rollouts, T + HOUR - 1).rollouts, [threshold(1, 100)]);
  t.deepEqual(fold(rollouts, T + HOUR).rollouts, []);
});

test('a ramped threshold carries its current percentage', (t) => {
  const flag = booleanFlag('r', [{ ...threshold(1, 10), threshold: { percentage: 10, value: true, ramp: [{ at: iso(T), percentage: 50 }] } }]);
  t.deepEqual(fold(flag, T - 1).rollouts, [threshold(1, 10)]);
  t.deepEqual(fold(flag, T).rollouts, [threshold(1, 50)]);
});

test('prerequisites that hold for everyone are dropped', (t) => {
  const child = requiring(booleanFlag('a', [threshold(1, 30)], true), { flagKey: 'on', enabled: true }, { flagKey: 'off', enabled: false });
  t.deepEqual(fold(child, T, booleanFlag('on', [], true), booleanFlag('off', [], false)), booleanFlag('a', [threshold(1, 30)], true));
});

test('a prerequisite that fails for everyone: a boolean flag answers false, a variant flag its default variant', (t) => {
  const off = booleanFlag('off', [], false);
  const folded = fold(requiring(booleanFlag('a', [segmentRollout(1, [pro])], true), { flagKey: 'off', enabled: true }), T, off);
  t.deepEqual(folded, { ...booleanFlag('a', [], true), rollouts: FAIL_CLOSED });
  const v = variantFlag('v', [rule(1, [everyone], [dist('new', 100)])], { defaultVariant: { key: 'old' } });
  t.deepEqual(fold(requiring(v, { flagKey: 'off', enabled: true }), T, off), { ...v, rules: [] });
  t.deepEqual(fold(requiring(v, { flagKey: 'ghost', enabled: false }), T), { ...v, rules: [] });
});

test('parents whose answer is the same for everyone are decided: thresholds of 0 and 100 %, segments without constraints', (t) => {
  const child = requiring(booleanFlag('a', [], true), { flagKey: 'p', enabled: true });
  const decided = (parent: SnapshotFlag) => fold(child, T, parent).rollouts.length === 0;
  t.true(decided(booleanFlag('p', [threshold(1, 0, false), threshold(2, 100, true)], false)));
  t.true(decided(booleanFlag('p', [segmentRollout(1, [everyone], true)], false)));
  t.false(decided(booleanFlag('p', [threshold(1, 100, false)], true)));
  t.false(decided(booleanFlag('p', [threshold(1, 50, true)], true)), 'a 50 % parent depends on the entity: served failing');
  t.false(decided(booleanFlag('p', [segmentRollout(1, [pro], true)], true)), 'a segment with constraints depends on the entity');
});

test('a variant parent: decided when every entity gets listed variants or none does', (t) => {
  const child = requiring(booleanFlag('a', [], true), { flagKey: 'p', variants: ['blue', 'teal'] });
  const holds = (parent: SnapshotFlag) => fold(child, T, parent).rollouts.length === 0;
  t.true(holds(variantFlag('p', [rule(1, [everyone], [dist('blue', 50), dist('teal', 50)])])));
  t.true(holds(variantFlag('p', [], { defaultVariant: { key: 'blue' } })));
  t.false(holds(variantFlag('p', [rule(1, [everyone], [dist('blue', 50)])], { defaultVariant: { key: 'red' } })), 'half get the default variant');
  t.false(holds(variantFlag('p', [rule(1, [pro], [dist('blue', 100)])], { defaultVariant: { key: 'blue' } })), 'a rule with constraints depends on the entity');
  t.false(holds({ ...variantFlag('p', [rule(1, [everyone], [dist('blue', 100)])]), enabled: false }));
});

test('prerequisites are followed through chains, at the time folded, and a cycle fails closed', (t) => {
  const a = requiring(booleanFlag('a', [], true), { flagKey: 'b', enabled: true });
  const b = requiring(booleanFlag('b', [], true), { flagKey: 'c', enabled: true });
  const c: SnapshotFlag = { ...booleanFlag('c', [], false), schedules: [{ at: iso(T), enabled: true }] };
  t.deepEqual(effectiveSnapshotFlag(a, byKey(a, b, c), T - 1).rollouts, FAIL_CLOSED);
  t.deepEqual(effectiveSnapshotFlag(a, byKey(a, b, c), T).rollouts, []);
  const loop = requiring(booleanFlag('b', [], true), { flagKey: 'a', enabled: false });
  t.deepEqual(effectiveSnapshotFlag(a, byKey(a, loop), T).rollouts, FAIL_CLOSED);
});

test('a disabled variant flag is served as it is: disabled wins over its prerequisites', (t) => {
  const v = { ...variantFlag('v', [rule(1, [everyone], [dist('a', 100)])]), enabled: false };
  t.deepEqual(fold(requiring(v, { flagKey: 'ghost', enabled: true }), T), v);
});

/** A document using every feature, and the times around each of its boundaries. */
function featureDocument(): SnapshotDocument {
  return doc(
    { ...booleanFlag('sched', [], false), schedules: [{ at: iso(T), enabled: true }, { at: iso(T + 2 * HOUR), enabled: false }] },
    booleanFlag('ramp', [segmentRollout(1, [pro], false), { ...threshold(2, 10), threshold: { percentage: 10, value: true, ramp: [{ at: iso(T + HOUR), percentage: 60 }] } }], false),
    variantFlag('win', [{ ...rule(1, [pro], [dist('gold', 100)]), validFrom: iso(T + HOUR) }, { ...rule(2, [everyone], [dist('a', 30), dist('b', 70)]), validUntil: iso(T + 3 * HOUR) }], { defaultVariant: { key: 'b' } }),
    requiring(variantFlag('gated', [rule(1, [everyone], [dist('x', 100)])], { defaultVariant: { key: 'y' } }), { flagKey: 'sched', enabled: true }),
    requiring(booleanFlag('gated-b', [threshold(1, 40)], false), { flagKey: 'sched', enabled: true }, { flagKey: 'win', variants: ['a', 'b'] }),
  );
}

test('the folded document answers as the engine does at every boundary and a millisecond either side, failing closed where that depends on the entity', (t) => {
  const document = featureDocument();
  const compiled = compileSnapshot(document, { hash: 'crc32' });
  const boundaries = documentBoundaries(document);
  t.deepEqual(boundaries, [T, T + HOUR, T + 2 * HOUR, T + 3 * HOUR]);
  const served = new Set<string>();
  for (const ms of boundaries.flatMap((b) => [b - 1, b, b + 1])) {
    const folded = effectiveSnapshotDocument(document, ms);
    t.deepEqual(ensignFieldsIn(folded), [], 'no field of Ensign\'s is shown');
    const plain = compileSnapshot(folded, { hash: 'crc32' });
    document.flags.forEach((flag, index) => {
      const shown = folded.flags[index]!;
      const failedClosed = flag.prerequisites !== undefined && (flag.type === 'BOOLEAN_FLAG_TYPE' ? JSON.stringify(shown.rollouts) === JSON.stringify(FAIL_CLOSED) : shown.rules.length === 0);
      if (!failedClosed) served.add(`${flag.key} at ${iso(ms)}`);
      for (let i = 0; i < 200; i++) {
        const input = { flagKey: flag.key, entityId: `user-${i}`, context: { plan: i % 3 === 0 ? 'pro' : 'free' } };
        const evaluate = flag.type === 'VARIANT_FLAG_TYPE' ? evaluateVariant : evaluateBoolean;
        const { prerequisite: _named, ...engine } = evaluate(compiled, input, at(ms)) as unknown as Record<string, unknown>;
        const client = evaluate(plain, input, at(0)) as unknown as Record<string, unknown>;
        const what = `${flag.key} for ${input.entityId} at ${iso(ms)}`;
        if (!failedClosed) t.deepEqual(client, engine, what);
        else if (flag.type === 'BOOLEAN_FLAG_TYPE') t.false(client['enabled'], what);
        else t.like(client, { match: false, variantKey: flag.defaultVariant?.key ?? '' }, what);
      }
    });
  }
  // The gated flags are served as they are once their parents hold for everyone, and gated-b fails
  // closed once `win` serves pro users a variant it does not list.
  t.deepEqual(
    ['gated', 'gated-b'].flatMap((key) => [T - 1, T, T + HOUR].map((ms) => served.has(`${key} at ${iso(ms)}`))),
    [false, true, true, false, true, false],
  );
});
