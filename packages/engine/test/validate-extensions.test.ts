/** Validation of schedules, windows, ramps and prerequisites: each problem with its JSON path, nothing compiled. */
import test from 'ava';
import { SnapshotInvalidError, compileSnapshot, effectiveSnapshotFlag, evaluateBoolean, validateSnapshot } from '@ensign/engine';
import type { SnapshotDocument, SnapshotFlag } from '@ensign/engine';
import { ENV, booleanFlag, dist, doc, rule, segment, threshold, variantFlag } from './snapshot-builders.js';

const good = (): SnapshotDocument =>
  doc(
    {
      ...variantFlag('v', [{ ...rule(1, [segment('s')], [dist('a', 100)]), validFrom: '2026-03-01T09:00:00.000Z', validUntil: '2026-03-02T09:00:00Z' }]),
      schedules: [
        { at: '2026-03-01T09:00:00.000Z', enabled: false },
        { at: '2026-03-01T09:00:00.000Z', enabled: true },
      ],
      prerequisites: [
        { flagKey: 'b', enabled: true },
        { flagKey: 'b', variants: ['x'] },
      ],
    },
    booleanFlag('b', [
      { ...threshold(1, 10), validUntil: '2026-03-01T10:00:00+01:00', threshold: { percentage: 10, value: true, ramp: [{ at: '2026-03-01T09:00:00Z', percentage: 20 }, { at: '2026-03-01T10:00:00Z', percentage: 100 }] } },
    ]),
  );

test('a document using every extension is valid', (t) => {
  t.deepEqual(validateSnapshot(good()), []);
});

test('null extension fields read as absent: valid, evaluated as plain, not shown to Flipt clients', (t) => {
  const nullRollout = { ...threshold(1, 100), validFrom: null, validUntil: null, threshold: { percentage: 100, value: true, ramp: null } };
  const flag = { ...booleanFlag('b', [], false), rollouts: [nullRollout], prerequisites: null, schedules: null } as unknown as SnapshotFlag;
  t.deepEqual(validateSnapshot(doc(flag)), []);
  t.like(evaluateBoolean(compileSnapshot(doc(flag), { hash: 'murmur3' }), { flagKey: 'b', entityId: 'e', context: {} }, ENV), { enabled: true });
  t.deepEqual(effectiveSnapshotFlag(flag, new Map(), 0), booleanFlag('b', [threshold(1, 100)], false));
});

const problems: Array<[string, (d: any) => void, Array<[path: string, message: RegExp]>]> = [
  ['a schedule at no time', (d) => (d.flags[0].schedules[0].at = 'tomorrow'), [['$.flags[0].schedules[0].at', /RFC 3339/]]],
  ['a schedule at a date only', (d) => (d.flags[0].schedules[0].at = '2026-03-01'), [['$.flags[0].schedules[0].at', /RFC 3339/]]],
  ['schedules out of order', (d) => (d.flags[0].schedules[1].at = '2026-03-01T08:00:00Z'), [['$.flags[0].schedules[1].at', /earlier than the previous schedule/]]],
  ['a schedule without enabled', (d) => delete d.flags[0].schedules[1].enabled, [['$.flags[0].schedules[1].enabled', /boolean/]]],
  ['schedules not an array', (d) => (d.flags[0].schedules = {}), [['$.flags[0].schedules', /array/]]],
  ['a window of a bad time', (d) => (d.flags[0].rules[0].validFrom = '2026-13-01T00:00:00Z'), [['$.flags[0].rules[0].validFrom', /RFC 3339/]]],
  ['an empty window', (d) => (d.flags[0].rules[0].validUntil = d.flags[0].rules[0].validFrom), [['$.flags[0].rules[0].validUntil', /later than validFrom/]]],
  ['a rollout window the wrong way round', (d) => (d.flags[1].rollouts[0].validFrom = '2026-03-01T09:30:00Z'), [['$.flags[1].rollouts[0].validUntil', /later than validFrom/]]],
  ['a window bound not a string', (d) => (d.flags[1].rollouts[0].validUntil = 1_700_000_000_000), [['$.flags[1].rollouts[0].validUntil', /RFC 3339/]]],
  ['ramp steps at the same time', (d) => (d.flags[1].rollouts[0].threshold.ramp[1].at = '2026-03-01T09:00:00.000Z'), [['$.flags[1].rollouts[0].threshold.ramp[1].at', /later than the previous ramp step/]]],
  ['a ramp step over 100', (d) => (d.flags[1].rollouts[0].threshold.ramp[1].percentage = 101), [['$.flags[1].rollouts[0].threshold.ramp[1].percentage', /0 to 100/]]],
  ['a ramp step below 0', (d) => (d.flags[1].rollouts[0].threshold.ramp[0].percentage = -1), [['$.flags[1].rollouts[0].threshold.ramp[0].percentage', /0 to 100/]]],
  ['a ramp not an array', (d) => (d.flags[1].rollouts[0].threshold.ramp = 'soon'), [['$.flags[1].rollouts[0].threshold.ramp', /array/]]],
  ['a prerequisite without a key', (d) => (d.flags[0].prerequisites[0].flagKey = ''), [['$.flags[0].prerequisites[0].flagKey', /empty/]]],
  ['a prerequisite with both conditions', (d) => (d.flags[0].prerequisites[0].variants = ['x']), [['$.flags[0].prerequisites[0]', /exactly one/]]],
  ['a prerequisite with neither', (d) => delete d.flags[0].prerequisites[1].variants, [['$.flags[0].prerequisites[1]', /exactly one/]]],
  ['variants not strings', (d) => (d.flags[0].prerequisites[1].variants = ['x', 2]), [['$.flags[0].prerequisites[1].variants[1]', /string/]]],
  ['enabled not a boolean', (d) => (d.flags[0].prerequisites[0].enabled = 'yes'), [['$.flags[0].prerequisites[0].enabled', /boolean/]]],
];

for (const [name, mutate, expected] of problems) {
  test(`refused: ${name}`, (t) => {
    const document = good();
    mutate(document);
    t.deepEqual(
      validateSnapshot(document).map((p) => p.path),
      expected.map(([path]) => path),
    );
    validateSnapshot(document).forEach((p, i) => t.regex(p.message, expected[i]![1]));
    const error = t.throws(() => compileSnapshot(document, { hash: 'murmur3' }), { instanceOf: SnapshotInvalidError });
    t.deepEqual(error?.paths, expected.map(([path]) => path));
  });
}
