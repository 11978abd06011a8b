import test from 'ava';
import { distributionRows, evenSplit, initialPercents, parsePercent, percentsOf, percentText, planDistributions } from '../src/lib/distributions.js';

test('an even split in whole percentages, the remainder on the first variants', (t) => {
  t.deepEqual(evenSplit(0), []);
  t.deepEqual(evenSplit(1), [100]);
  t.deepEqual(evenSplit(2), [50, 50]);
  t.deepEqual(evenSplit(3), [34, 33, 33]);
  t.deepEqual(evenSplit(6), [17, 17, 17, 17, 16, 16]);
  for (let n = 1; n <= 12; n++) t.is(evenSplit(n).reduce((a, b) => a + b, 0), 100);
});

test('percentages as typed: empty is 0, decimals to two places, nothing outside 0..100', (t) => {
  t.is(parsePercent(''), 0);
  t.is(parsePercent(' 25 '), 25);
  t.is(parsePercent('33.333'), 33.33);
  t.is(parsePercent('.5'), 0.5);
  t.is(parsePercent('101'), undefined);
  t.is(parsePercent('-1'), undefined);
  t.is(parsePercent('1e2'), undefined);
  t.is(parsePercent('ten'), undefined);
  t.is(percentText(33.33000183105469), '33.33');
});

test('the plan updates what changed, deletes what went to 0, creates what is new', (t) => {
  const existing = [
    { id: 'd1', variantId: 'a', rollout: 50 },
    { id: 'd2', variantId: 'b', rollout: 50 },
    { id: 'd3', variantId: 'c', rollout: 33.33000183105469 },
  ];
  t.deepEqual(planDistributions(existing, { a: 50, b: 0, c: 33.33, d: 16.67 }), [
    { kind: 'delete', id: 'd2', variantId: 'b' },
    { kind: 'create', variantId: 'd', rollout: 16.67 },
  ]);
  t.deepEqual(planDistributions(existing, { a: 70, c: 30 }), [
    { kind: 'update', id: 'd1', variantId: 'a', rollout: 70 },
    { kind: 'delete', id: 'd2', variantId: 'b' },
    { kind: 'update', id: 'd3', variantId: 'c', rollout: 30 },
  ]);
  t.deepEqual(planDistributions([], { a: 50, b: 50, c: 0 }), [
    { kind: 'create', variantId: 'a', rollout: 50 },
    { kind: 'create', variantId: 'b', rollout: 50 },
  ]);
  t.deepEqual(planDistributions([{ id: 'x', variantId: 'a', rollout: 50 }, { id: 'y', variantId: 'a', rollout: 50 }], { a: 50 }), [{ kind: 'delete', id: 'y', variantId: 'a' }], 'a second distribution of a variant goes');
  t.deepEqual(planDistributions(existing, { a: 50, b: 50, c: 33.33 }), [], 'nothing changed, nothing sent');
});

test('a dialog starts from the rule’s percentages, or an even split for a new rule', (t) => {
  t.deepEqual(initialPercents(['a', 'b', 'c'], undefined), { a: '34', b: '33', c: '33' });
  t.deepEqual(initialPercents(['a', 'b'], [{ id: 'd1', variantId: 'b', rollout: 33.33000183105469 }]), { a: '0', b: '33.33' });
  t.deepEqual(percentsOf({ a: '12.5', b: '' }), { a: 12.5, b: 0 });
});

test('a rule with two distributions of one variant (50 + 50 + 60) shows each, and only what is set to 0 goes', (t) => {
  const existing = [
    { id: 'd1', variantId: 'a', rollout: 50 },
    { id: 'd2', variantId: 'b', rollout: 50 },
    { id: 'd3', variantId: 'a', rollout: 60 },
  ];
  t.deepEqual(initialPercents(['a', 'b'], existing), { a: '50', b: '50', d3: '60' });
  t.deepEqual(distributionRows(['a', 'b'], existing), [
    { slot: 'a', variantId: 'a', nth: 1 },
    { slot: 'd3', variantId: 'a', nth: 2 },
    { slot: 'b', variantId: 'b', nth: 1 },
  ]);
  t.deepEqual(planDistributions(existing, { a: 50, b: 50, d3: 60 }), [], 'saved as shown, nothing is deleted');
  t.deepEqual(planDistributions(existing, { a: 40, b: 50, d3: 0 }), [
    { kind: 'update', id: 'd1', variantId: 'a', rollout: 40 },
    { kind: 'delete', id: 'd3', variantId: 'a' },
  ]);
});
