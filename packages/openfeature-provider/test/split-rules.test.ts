/** Which matched rule assigned a variant by bucket: SPLIT, against TARGETING_MATCH. */
import test from 'ava';
import { flag, segment } from '@ensign/testkit/snapshot-fixtures';
import type { SnapshotRule } from '@ensign/engine';
import { SplitRules } from '../src/resolve/split-rules.js';

const distribution = (variantKey: string, rollout: number) => ({ id: '', ruleId: '', variantId: variantKey, variantKey, variantAttachment: '', rollout });
const rule = (rank: number, keys: string[], rollouts: number[], fields: Partial<SnapshotRule> = {}): SnapshotRule => ({
  id: `r${rank}`,
  rank,
  segmentOperator: 'OR_SEGMENT_OPERATOR',
  segments: keys.map((key) => segment(key)),
  distributions: rollouts.map((r, i) => distribution(`v${i}`, r)),
  ...fields,
});
const NOW = () => Date.parse('2026-01-01T00:00:00Z');

test('a rule over two variants, or one below 100 %, splits; one variant at 100 % or none does not', (t) => {
  const splits = new SplitRules([
    flag('two', { rules: [rule(1, ['a'], [50, 50])] }),
    flag('partial', { rules: [rule(1, ['a'], [30])] }),
    flag('whole', { rules: [rule(1, ['a'], [100])] }),
    flag('none', { rules: [rule(1, ['a'], [])] }),
    flag('zeroes', { rules: [rule(1, ['a'], [100, 0])] }),
  ]);
  t.true(splits.variantSplit('two', ['a'], NOW));
  t.true(splits.variantSplit('partial', ['a'], NOW));
  t.false(splits.variantSplit('whole', ['a'], NOW));
  t.false(splits.variantSplit('none', ['a'], NOW));
  t.false(splits.variantSplit('zeroes', ['a'], NOW));
});

test('mixed rules: the matched one is found from the segments the result names', (t) => {
  const splits = new SplitRules([
    flag('mixed', {
      rules: [
        rule(1, ['vip'], [100]),
        rule(2, ['a', 'b'], [50, 50], { segmentOperator: 'AND_SEGMENT_OPERATOR' }),
        rule(3, ['a', 'c'], [100]),
        rule(4, ['d', 'e'], [50, 50]),
      ],
    }),
  ]);
  t.false(splits.variantSplit('mixed', ['vip'], NOW));
  t.true(splits.variantSplit('mixed', ['a', 'b'], NOW), 'the AND rule, all its segments');
  t.false(splits.variantSplit('mixed', ['a'], NOW), 'only a: the AND rule did not match, the OR rule did');
  t.false(splits.variantSplit('mixed', ['a', 'c'], NOW));
  t.true(splits.variantSplit('mixed', ['e'], NOW));
});

test('a rule outside its window is not the one that matched', (t) => {
  const splits = new SplitRules([
    flag('timed', { rules: [rule(1, ['a'], [50, 50], { validUntil: '2025-01-01T00:00:00Z' }), rule(2, ['a'], [100])] }),
  ]);
  t.false(splits.variantSplit('timed', ['a'], NOW));
  t.true(splits.variantSplit('timed', ['a'], () => Date.parse('2024-06-01T00:00:00Z')));
});
