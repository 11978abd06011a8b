import test from 'ava';
import { absoluteTime, exactTime, lastEvaluatedText, relativeTime } from '../src/lib/relative-time.js';

const now = Date.parse('2026-05-10T12:00:00Z');

test('how long ago, in the largest whole unit', (t) => {
  t.is(relativeTime('2026-05-10T11:59:30Z', now), 'just now');
  t.is(relativeTime('2026-05-10T12:05:00Z', now), 'just now', 'a clock ahead of this one');
  t.is(relativeTime('2026-05-10T11:57:00Z', now), '3 minutes ago');
  t.is(relativeTime('2026-05-10T11:55:00Z', now), '5 minutes ago');
  t.is(relativeTime('2026-05-10T10:00:00Z', now), '2 hours ago');
  t.is(relativeTime('2026-05-10T09:00:00Z', now), '3 hours ago');
  t.is(relativeTime('2026-05-09T12:00:00Z', now), 'yesterday');
  t.is(relativeTime('2026-05-09T11:00:00Z', now), 'yesterday');
  t.is(relativeTime('2026-04-20T12:00:00Z', now), '2 weeks ago');
  t.is(relativeTime('2025-05-10T12:00:00Z', now), 'last year');
  t.is(relativeTime('2024-05-01T12:00:00Z', now), '2 years ago');
  t.is(relativeTime('not a time', now), '');
  t.is(relativeTime('nonsense', now), '');
});

test('the full time for a tooltip', (t) => {
  t.is(absoluteTime('2026-05-10T11:57:31.123Z'), '2026-05-10 11:57 UTC');
  t.is(absoluteTime('garbage'), 'garbage');
  t.is(absoluteTime('2026-05-10T11:57:31.123Z', 'America/New_York'), '2026-05-10 07:57 EDT', 'in the zone chosen');
  t.is(absoluteTime('2026-05-10T11:57:31.123Z', 'UTC'), '2026-05-10 11:57 UTC');
});

test('the exact time, to the second', (t) => {
  t.is(exactTime('2026-05-10T11:57:31.123Z'), '2026-05-10 11:57:31 UTC');
  t.is(exactTime('2026-05-10T13:57:31+02:00'), '2026-05-10 11:57:31 UTC');
  t.is(exactTime('garbage'), 'garbage');
  t.is(exactTime('2026-05-10T11:57:31Z', 'Europe/Berlin'), '2026-05-10 13:57:31 CEST', 'in the zone chosen');
});

test('the last evaluation: how long ago, or never', (t) => {
  t.is(lastEvaluatedText(null, now), 'never');
  t.is(lastEvaluatedText(undefined, now), 'never');
  t.is(lastEvaluatedText('', now), 'never');
  t.is(lastEvaluatedText('2026-05-10T11:59:50Z', now), 'just now');
  t.is(lastEvaluatedText('2026-05-10T11:00:00Z', now), '1 hour ago');
});
