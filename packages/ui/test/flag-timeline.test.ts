import type { FlagSchedule, Rollout, Rule } from '@ensign/core';
import test from 'ava';
import { flagTimeline, nowIndex, stepKey, stepStatus, stepText } from '../src/lib/flag-timeline.js';

const schedule = (id: string, at: string, enabled: boolean, status: FlagSchedule['status'] = 'pending'): FlagSchedule => ({
  id,
  namespaceKey: 'default',
  flagKey: 'checkout',
  at,
  enabled,
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const rule = (id: string, rank: number, window: { validFrom?: string; validUntil?: string } = {}): Rule =>
  ({ id, rank, flagKey: 'checkout', namespaceKey: 'default', segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', distributions: [], createdAt: '', updatedAt: '', ...window }) as Rule;

const rollout = (id: string, rank: number, ramp: Array<{ at: string; percentage: number }>, window: { validFrom?: string; validUntil?: string } = {}): Rollout =>
  ({ id, rank, flagKey: 'checkout', namespaceKey: 'default', type: 'THRESHOLD_ROLLOUT_TYPE', description: '', threshold: { percentage: 10, value: true, ramp }, createdAt: '', updatedAt: '', ...window }) as Rollout;

test('schedules, window edges and ramp steps in time order, named by their rule or rollout position', (t) => {
  const steps = flagTimeline(
    [schedule('s1', '2030-01-02T09:00:00.000Z', true)],
    [rule('r2', 2, { validFrom: '2030-01-03T00:00:00.000Z' }), rule('r1', 1, { validUntil: '2030-01-01T00:00:00.000Z' })],
    [rollout('o1', 1, [{ at: '2030-01-04T00:00:00.000Z', percentage: 50 }, { at: '2030-01-05T00:00:00.000Z', percentage: 100 }])],
  );
  t.deepEqual(
    steps.map((step) => stepText(step, 'upcoming')),
    ['Rule 1 stops applying', 'Switches the flag on', 'Rule 2 starts to apply', 'Rollout 1 rises to 50%', 'Rollout 1 rises to 100%'],
  );
  t.is(new Set(steps.map(stepKey)).size, steps.length, 'each step has a key of its own');
});

test('at the same time a schedule comes before a window edge, which comes before a ramp step', (t) => {
  const at = '2030-01-01T00:00:00.000Z';
  const steps = flagTimeline([schedule('s', at, false)], [], [rollout('o', 1, [{ at, percentage: 20 }], { validFrom: at })]);
  t.deepEqual(
    steps.map((s) => s.kind),
    ['schedule', 'window', 'ramp'],
  );
});

test('where a step stands, and its words in that tense', (t) => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  const [past, future] = flagTimeline([], [], [rollout('o', 1, [{ at: '2030-01-01T00:00:00Z', percentage: 20 }, { at: '2030-01-02T00:00:00Z', percentage: 40 }])]);
  t.is(stepStatus(past!, now), 'applied');
  t.is(stepText(past!, 'applied'), 'Rollout 1 rose to 20%');
  t.is(stepStatus(future!, now), 'upcoming');
  const [applied, due, cancelled] = flagTimeline(
    [schedule('a', '2030-01-01T11:59:00Z', true), schedule('b', '2030-01-01T11:00:00Z', false, 'applied'), schedule('c', '2030-01-03T00:00:00Z', true, 'cancelled')],
    [],
    [],
  );
  t.is(stepStatus(applied!, now), 'applied');
  t.is(stepText(applied!, 'applied'), 'Switched the flag off');
  t.is(stepStatus(due!, now), 'due', 'its time has come, the service has not applied it yet');
  t.is(stepStatus(cancelled!, now), 'cancelled');
  t.is(stepText(cancelled!, 'cancelled'), 'Switch the flag on');
});

test('now stands before the first step still to come', (t) => {
  const steps = flagTimeline([schedule('a', '2030-01-01T00:00:00Z', true), schedule('b', '2030-01-03T00:00:00Z', false)], [], []);
  t.is(nowIndex(steps, Date.parse('2029-12-31T00:00:00Z')), 0);
  t.is(nowIndex(steps, Date.parse('2030-01-02T00:00:00Z')), 1);
  t.is(nowIndex(steps, Date.parse('2030-01-04T00:00:00Z')), 2);
});
