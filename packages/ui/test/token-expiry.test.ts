import test from 'ava';
import { choiceOf, dayAfter, endOfDay, expiryOf, localDay } from '../src/lib/token-expiry.js';

const NOW = new Date(2030, 0, 30, 15, 30);

test('quick choices pick a local day counted from today, across month ends', (t) => {
  t.is(localDay(NOW), '2030-01-30');
  t.is(dayAfter(NOW, 7), '2030-02-06');
  t.is(dayAfter(NOW, 30), '2030-03-01');
  t.is(dayAfter(NOW, 90), '2030-04-30');
});

test('a picked day expires at its last moment, local time', (t) => {
  const end = endOfDay('2030-02-06');
  t.deepEqual(end, new Date(2030, 1, 6, 23, 59, 59, 999));
  t.is(endOfDay('2030-02-31'), undefined, 'a day that does not exist');
  t.is(endOfDay('next week'), undefined);
  t.is(endOfDay(''), undefined);
});

test('expiresAt is RFC 3339 for a day to come, absent for never, refused for a day gone by', (t) => {
  t.deepEqual(expiryOf('', NOW), { ok: true, expiresAt: undefined });
  t.deepEqual(expiryOf('2030-02-06', NOW), { ok: true, expiresAt: new Date(2030, 1, 6, 23, 59, 59, 999).toISOString() });
  t.deepEqual(expiryOf('2030-01-30', NOW), { ok: true, expiresAt: new Date(2030, 0, 30, 23, 59, 59, 999).toISOString() }, 'today still has time left');
  t.like(expiryOf('2030-01-29', NOW), { ok: false, error: 'Pick a day that has not passed yet' });
  t.like(expiryOf('31/01/2030', NOW), { ok: false });
});

test('a year the service cannot take is still sent, so the service says why', (t) => {
  const choice = expiryOf('12000-01-01', NOW);
  t.true(choice.ok);
  if (choice.ok) t.regex(choice.expiresAt ?? '', /^\+012000-01-0/);
});

test('the pressed quick choice follows the picked day', (t) => {
  t.is(choiceOf('', NOW), 'Never');
  t.is(choiceOf('2030-03-01', NOW), '30 days');
  t.is(choiceOf('2030-03-02', NOW), undefined);
});
