import test from 'ava';
import { formatPercent, knownReasons, knownValues, valueLabel, valueSplit } from '../src/lib/usage-split.js';

test('the values a flag can serve come first in their order, also when none was served; others follow by count', (t) => {
  const rows = valueSplit(
    [
      { value: 'green', count: 30 },
      { value: '', count: 10 },
      { value: 'old', count: 20 },
      { value: 'blue', count: 40 },
    ],
    ['blue', 'green', 'red'],
  );
  t.deepEqual(
    rows.map((r) => [r.value, r.count, r.percent]),
    [
      ['blue', 40, 40],
      ['green', 30, 30],
      ['red', 0, 0],
      ['old', 20, 20],
      ['', 10, 10],
    ],
  );
});

test('a boolean flag’s split, repeated values added up, nonsense counts ignored', (t) => {
  const rows = valueSplit(
    [
      { value: 'true', count: 2 },
      { value: 'true', count: 1 },
      { value: 'false', count: -4 },
    ],
    knownValues({ type: 'BOOLEAN_FLAG_TYPE' }),
  );
  t.deepEqual(
    rows.map((r) => [r.value, r.count, r.percent]),
    [
      ['true', 3, 100],
      ['false', 0, 0],
    ],
  );
  t.deepEqual(
    valueSplit([], ['a']).map((r) => r.percent),
    [0],
    'no evaluations: no shares',
  );
});

test('the values a flag can serve', (t) => {
  t.deepEqual(knownValues({ type: 'VARIANT_FLAG_TYPE', variants: [{ key: 'a' }, { key: 'b' }] }), ['a', 'b']);
  t.deepEqual(knownValues({ type: 'VARIANT_FLAG_TYPE' }), []);
  t.deepEqual(knownValues({ type: 'BOOLEAN_FLAG_TYPE' }), ['true', 'false']);
});

test('percentages: whole when whole, one decimal otherwise, and never a misleading 0% or 100%', (t) => {
  t.is(formatPercent(60), '60%');
  t.is(formatPercent(100), '100%');
  t.is(formatPercent(100 / 3), '33.3%');
  t.is(formatPercent(12.96), '13%');
  t.is(formatPercent(0), '0%');
  t.is(formatPercent(0.04), '<0.1%');
  t.is(formatPercent(99.96), '>99.9%');
  t.is(formatPercent(Number.NaN), '0%');
});

test('an evaluation that matched no variant reads as such', (t) => {
  t.is(valueLabel(''), 'No variant');
  t.is(valueLabel('blue'), 'blue');
});

test('the reasons a flag gives: matched, the default (or nothing, for a variant flag without a default variant), disabled (variant flags only)', (t) => {
  t.deepEqual(knownReasons({ type: 'BOOLEAN_FLAG_TYPE' }), ['MATCH_EVALUATION_REASON', 'DEFAULT_EVALUATION_REASON']);
  t.deepEqual(knownReasons({ type: 'VARIANT_FLAG_TYPE', defaultVariant: { key: 'blue' } }), ['MATCH_EVALUATION_REASON', 'DEFAULT_EVALUATION_REASON', 'FLAG_DISABLED_EVALUATION_REASON']);
  t.deepEqual(knownReasons({ type: 'VARIANT_FLAG_TYPE' }), ['MATCH_EVALUATION_REASON', 'UNKNOWN_EVALUATION_REASON', 'FLAG_DISABLED_EVALUATION_REASON']);
  const rows = valueSplit([{ value: 'FLAG_DISABLED_EVALUATION_REASON', count: 1 }, { value: 'MATCH_EVALUATION_REASON', count: 3 }], knownReasons({ type: 'VARIANT_FLAG_TYPE' }));
  t.deepEqual(rows.map((r) => [r.value, r.count, r.percent]), [['MATCH_EVALUATION_REASON', 3, 75], ['UNKNOWN_EVALUATION_REASON', 0, 0], ['FLAG_DISABLED_EVALUATION_REASON', 1, 25]]);
});
