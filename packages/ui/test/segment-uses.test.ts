import type { Rollout, Rule } from '@ensign/core';
import test from 'ava';
import { segmentUses, usesByFlag } from '../src/lib/segment-uses.js';

const rule = (rank: number, segmentKey: string, segmentKeys: string[] = []): Rule =>
  ({ id: `r${rank}`, namespaceKey: 'shop', flagKey: 'f', segmentKey, segmentKeys, segmentOperator: 'OR_SEGMENT_OPERATOR', distributions: [], rank, createdAt: '', updatedAt: '' });
const rollout = (rank: number, segmentKeys: string[] | undefined): Rollout => ({
  id: `o${rank}`,
  namespaceKey: 'shop',
  flagKey: 'b',
  type: segmentKeys === undefined ? 'THRESHOLD_ROLLOUT_TYPE' : 'SEGMENT_ROLLOUT_TYPE',
  rank,
  description: '',
  createdAt: '',
  updatedAt: '',
  ...(segmentKeys === undefined
    ? { threshold: { percentage: 50, value: true } }
    : { segment: { segmentKey: segmentKeys.length === 1 ? (segmentKeys[0] as string) : '', segmentKeys: segmentKeys.length === 1 ? [] : segmentKeys, segmentOperator: 'AND_SEGMENT_OPERATOR', value: true } }),
});

test('the rules and rollouts using a segment, by flag key, each by its position', (t) => {
  const uses = segmentUses('beta', [
    { key: 'checkout', name: 'Checkout', rules: [rule(2, '', ['staff', 'beta']), rule(1, 'beta'), rule(3, 'staff')], rollouts: [] },
    { key: 'banner', name: 'Banner', rules: [], rollouts: [rollout(1, undefined), rollout(2, ['beta'])] },
    { key: 'unused', name: 'Unused', rules: [rule(1, 'staff')], rollouts: [] },
  ]);
  t.deepEqual(uses, [
    { flagKey: 'banner', flagName: 'Banner', kind: 'rollout', position: 2 },
    { flagKey: 'checkout', flagName: 'Checkout', kind: 'rule', position: 1 },
    { flagKey: 'checkout', flagName: 'Checkout', kind: 'rule', position: 2 },
  ]);
  t.deepEqual(
    usesByFlag(uses).map((group) => [group.flagKey, group.uses.length]),
    [
      ['banner', 1],
      ['checkout', 2],
    ],
  );
});
