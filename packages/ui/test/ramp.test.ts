import test from 'ava';
import { rampFieldOf, rampHasProblems, rampInput, rampProblems, rampRows } from '../src/lib/ramp.js';

const ZONE = 'America/New_York';

test('stored steps as rows in the chosen zone, and back as sent', (t) => {
  const rows = rampRows([{ at: '2030-01-15T14:00:00.000Z', percentage: 25 }], ZONE);
  t.deepEqual(rows, [{ at: '2030-01-15T09:00', percentage: '25' }]);
  t.deepEqual(rampInput(rows, ZONE, undefined), [{ at: '2030-01-15T14:00:00Z', percentage: 25 }]);
});

test('a ramp left empty is left out, or cleared with [] when there was one', (t) => {
  t.is(rampInput([], ZONE, undefined), undefined);
  t.is(rampInput([{ at: '', percentage: '' }], ZONE, []), undefined, 'a blank row is no step');
  t.deepEqual(rampInput([], ZONE, [{ at: '2030-01-15T14:00:00.000Z', percentage: 25 }]), []);
});

test('each step later than the one before, each percentage rising above the threshold, at most 100', (t) => {
  const problems = rampProblems(
    [
      { at: '2030-01-02T00:00', percentage: '10' },
      { at: '2030-01-01T00:00', percentage: '60' },
      { at: '', percentage: '' },
      { at: '2030-01-03T00:00', percentage: '50' },
      { at: '2030-01-04T00:00', percentage: '101' },
      { at: '', percentage: '70' },
    ],
    20,
    'UTC',
  );
  t.deepEqual(problems, [
    { percentage: 'Must be above 20%.' },
    { at: 'Must be later than the step before.' },
    {},
    { percentage: 'Must be above 60%.' },
    { percentage: 'Enter a percentage from 0 to 100.' },
    { at: 'Enter a date and time.' },
  ]);
  t.true(rampHasProblems(problems));
  t.false(rampHasProblems(rampProblems([{ at: '2030-01-01T00:00', percentage: '30' }], 20, 'UTC')));
});

test('a refusal naming a step is placed on its row, counting only the rows sent', (t) => {
  const rows = [{ at: '', percentage: '' }, { at: '2030-01-01T00:00', percentage: '30' }, { at: '2030-01-02T00:00', percentage: '40' }];
  t.deepEqual(rampFieldOf('threshold.ramp[1].at', rows), { row: 2, input: 'at' });
  t.deepEqual(rampFieldOf('ramp[0].percentage', rows), { row: 1, input: 'percentage' });
  t.is(rampFieldOf('threshold.percentage', rows), undefined);
  t.is(rampFieldOf(undefined, rows), undefined);
});
