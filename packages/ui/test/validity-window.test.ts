import test from 'ava';
import { windowChanged, windowDraft, windowInput, windowProblems, windowState } from '../src/lib/validity-window.js';

const ZONE = 'Europe/Berlin';

test('a stored window as the inputs show it in the chosen zone', (t) => {
  t.deepEqual(windowDraft({ validFrom: '2030-01-15T09:00:00.000Z' }, ZONE), { from: '2030-01-15T10:00', until: '' });
  t.deepEqual(windowDraft(undefined, ZONE), { from: '', until: '' });
});

test('a new window sends only the bounds set', (t) => {
  t.deepEqual(windowInput({ from: '', until: '' }, ZONE), {});
  t.deepEqual(windowInput({ from: '2030-01-15T10:00', until: '' }, ZONE), { validFrom: '2030-01-15T09:00:00Z' });
});

test('an update clears with "" a bound the rule had, and leaves out one it never had', (t) => {
  const stored = { validFrom: '2030-01-15T09:00:00.000Z' };
  t.deepEqual(windowInput({ from: '', until: '' }, ZONE, stored), { validFrom: '' });
  t.deepEqual(windowInput({ from: '', until: '2030-02-01T00:00' }, ZONE, stored), { validFrom: '', validUntil: '2030-01-31T23:00:00Z' });
  t.false(windowChanged({ from: '2030-01-15T10:00', until: '' }, ZONE, stored));
  t.true(windowChanged({ from: '', until: '' }, ZONE, stored));
  t.false(windowChanged({ from: '', until: '' }, ZONE, {}));
});

test('an end not after its start is a problem of the end', (t) => {
  t.deepEqual(windowProblems({ from: '2030-01-02T00:00', until: '2030-01-01T00:00' }, 'UTC'), { until: 'Valid until must be later than valid from.' });
  t.deepEqual(windowProblems({ from: '2030-01-02T00:00', until: '2030-01-02T00:00' }, 'UTC'), { until: 'Valid until must be later than valid from.' });
  t.deepEqual(windowProblems({ from: '2030-01-01T00:00', until: '' }, 'UTC'), {});
});

test('from is inclusive, until exclusive', (t) => {
  const window = { validFrom: '2030-01-01T00:00:00Z', validUntil: '2030-01-02T00:00:00Z' };
  const ms = (iso: string) => Date.parse(iso);
  t.is(windowState(window, ms('2029-12-31T23:59:59.999Z')), 'before');
  t.is(windowState(window, ms('2030-01-01T00:00:00Z')), 'open');
  t.is(windowState(window, ms('2030-01-01T23:59:59.999Z')), 'open');
  t.is(windowState(window, ms('2030-01-02T00:00:00Z')), 'after');
  t.is(windowState({}, 0), 'always');
});
