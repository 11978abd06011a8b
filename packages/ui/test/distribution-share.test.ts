import type { Distribution, Rule, SegmentOperator } from '@ensign/core';
import test from 'ava';
import { checkShares, gapMatch, gapSentence, lossSentence, unassignedShare, variantLosses } from '../src/lib/distribution-share.js';

const dist = (variantId: string, rollout: number): Distribution => ({ id: `d-${variantId}-${rollout}`, ruleId: 'r', variantId, rollout, createdAt: '', updatedAt: '' }) as Distribution;

function rule(keys: string[], distributions: Distribution[], operator: SegmentOperator = 'OR_SEGMENT_OPERATOR'): Rule {
  return {
    id: `rule-${keys.join('-')}`,
    namespaceKey: 'default',
    flagKey: 'f',
    segmentKey: keys.length === 1 ? (keys[0] as string) : '',
    segmentKeys: keys.length > 1 ? keys : [],
    segmentOperator: operator,
    distributions,
    rank: 0,
    createdAt: '',
    updatedAt: '',
  };
}

test('a total up to 100% is allowed and the rest is unassigned; above 100% is refused, naming the field', (t) => {
  t.like(checkShares({ a: '50', b: '50' }), { ok: true, total: 100, unassigned: 0, none: false });
  t.like(checkShares({ a: '50', b: '30' }), { ok: true, total: 80, unassigned: 20, none: false, message: undefined });
  t.like(checkShares({ a: '33.33', b: '33.33' }), { ok: true, total: 66.66, unassigned: 33.34 });
  t.like(checkShares({ a: '0', b: '' }), { ok: true, none: true, unassigned: 100 });
  t.like(checkShares({}), { ok: true, none: true });
  t.like(checkShares({ a: '60', b: '50' }), { ok: false, total: 110, unassigned: 0, message: 'Distribution: the percentages add up to 110%; lower them to 100% or less.' });
  t.like(checkShares({ a: '50', b: 'x' }), { ok: false, invalid: ['b'], message: 'Distribution: each percentage must be a number from 0 to 100.' });
});

test('the unassigned share of stored distributions ignores float32 noise', (t) => {
  t.is(unassignedShare([{ rollout: 33.33000183105469 }, { rollout: 33.33000183105469 }, { rollout: 33.34000015258789 }]), 0);
  t.is(unassignedShare([{ rollout: 80 }]), 20);
  t.is(unassignedShare([]), 100);
});

test('deleting a variant names each rule that sends it a share, and what that rule then leaves unassigned', (t) => {
  const rules = [rule(['everyone'], [dist('green', 100)]), rule(['beta-testers'], [dist('green', 80), dist('blue', 20)]), rule(['eu', 'staff'], [dist('blue', 50)], 'AND_SEGMENT_OPERATOR')];
  const losses = variantLosses(rules, 'blue');
  t.deepEqual(losses, [
    { rank: 2, segments: 'segment beta-testers', lost: 20, unassignedAfter: 20 },
    { rank: 3, segments: 'segments eu AND staff', lost: 50, unassignedAfter: 100 },
  ]);
  t.is(lossSentence(losses[0]!, 'blue'), 'Rule 2 (segment beta-testers) loses its 20% to blue; 20% of that segment will then get no variant.');
  t.is(lossSentence(losses[1]!, 'blue'), 'Rule 3 (segments eu AND staff) loses its 50% to blue; 100% of those segments will then get no variant.');
  t.deepEqual(variantLosses(rules, 'red'), []);
});

test('an unmatched answer that names segments is placed in the unassigned share of the rule it matched', (t) => {
  const rules = [rule(['everyone'], [dist('green', 100)]), rule(['beta'], [dist('blue', 80)]), rule(['eu', 'staff'], [dist('blue', 50)], 'AND_SEGMENT_OPERATOR')];
  t.deepEqual(gapMatch(rules, { match: false, segmentKeys: ['beta'] }), { rank: 2, segments: 'segment beta', unassigned: 20 });
  t.deepEqual(gapMatch(rules, { match: false, segmentKeys: ['eu', 'staff'] }), { rank: 3, segments: 'segments eu AND staff', unassigned: 50 });
  t.is(gapMatch(rules, { match: false, segmentKeys: ['eu'] }), undefined, 'an AND rule matches with all its segments');
  t.is(gapMatch(rules, { match: true, segmentKeys: ['beta'] }), undefined);
  t.is(gapMatch(rules, { match: false, segmentKeys: [] }), undefined);
  t.is(gapMatch([rule(['beta'], [])], { match: false, segmentKeys: ['beta'] }), undefined, 'a rule without distributions matches without a variant');
  t.is(gapSentence({ rank: 2, segments: 'segment beta', unassigned: 20 }, ''), 'Matched rule 2 (segment beta) but fell in its unassigned 20%: no variant');
  t.is(gapSentence({ rank: 2, segments: 'segment beta', unassigned: 20 }, 'control'), 'Matched rule 2 (segment beta) but fell in its unassigned 20%: the default variant control applies');
});
