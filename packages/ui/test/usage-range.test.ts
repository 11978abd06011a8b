import test from 'ava';
import { readUsageRange, stepLabel, timelinePoints, USAGE_RANGES, usageBounds, usageStepMs } from '../src/lib/usage-range.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

test('a range ends at the current minute, seconds and milliseconds zeroed, and starts its length before', (t) => {
  const now = Date.parse('2026-05-10T12:34:56.789Z');
  t.deepEqual(usageBounds('30m', now), { from: '2026-05-10T12:04:00.000Z', to: '2026-05-10T12:34:00.000Z' });
  t.deepEqual(usageBounds('1h', now), { from: '2026-05-10T11:34:00.000Z', to: '2026-05-10T12:34:00.000Z' });
  t.deepEqual(usageBounds('4h', now), { from: '2026-05-10T08:34:00.000Z', to: '2026-05-10T12:34:00.000Z' });
  t.deepEqual(usageBounds('12h', now), { from: '2026-05-10T00:34:00.000Z', to: '2026-05-10T12:34:00.000Z' });
  t.deepEqual(usageBounds('1d', now), { from: '2026-05-09T12:34:00.000Z', to: '2026-05-10T12:34:00.000Z' });
  t.deepEqual(usageBounds('30m', Date.parse('2026-05-10T12:00:00.000Z')).to, '2026-05-10T12:00:00.000Z', 'on the minute already');
});

test('the ranges, the default, and what the address may name', (t) => {
  t.deepEqual(
    USAGE_RANGES.map((r) => r.label),
    ['30 minutes', '1 hour', '4 hours', '12 hours', '1 day'],
  );
  t.is(readUsageRange(null), '30m');
  t.is(readUsageRange('12h'), '12h');
  t.is(readUsageRange('2h'), '30m', 'a range not offered is the default');
});

test('the step grows with the range as Flipt’s does: 1, 5, 15, 30 minutes', (t) => {
  t.is(usageStepMs(30 * MINUTE), MINUTE);
  t.is(usageStepMs(4 * HOUR - 1), MINUTE);
  t.is(usageStepMs(4 * HOUR), 5 * MINUTE);
  t.is(usageStepMs(12 * HOUR), 15 * MINUTE);
  t.is(usageStepMs(24 * HOUR), 30 * MINUTE);
  t.is(stepLabel('1h'), 'per minute');
  t.is(stepLabel('4h'), 'per 5 minutes');
  t.is(stepLabel('1d'), 'per 30 minutes');
});

test('timeline points pair times with counts, labelled by the time of day', (t) => {
  const points = timelinePoints(
    { timestamps: ['2026-05-10T12:00:00Z', 'not a time', '2026-05-10T12:01:00Z', '2026-05-10T12:02:00Z'], values: [3, 9, 0] },
    'UTC',
  );
  t.deepEqual(points, [
    { at: '2026-05-10T12:00:00Z', label: '12:00', count: 3 },
    { at: '2026-05-10T12:01:00Z', label: '12:01', count: 0 },
    { at: '2026-05-10T12:02:00Z', label: '12:02', count: 0 },
  ]);
  t.is(timelinePoints({ timestamps: ['2026-05-10T23:30:00Z'], values: [1] }, 'Asia/Kolkata')[0]?.label, '05:00', 'in the browser’s time zone');
  t.deepEqual(timelinePoints({ timestamps: [], values: [] }), []);
});
