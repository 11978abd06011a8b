import test from 'ava';
import { isKnownTimeZone, utcToWallTime, wallTimeToUtc } from '../src/lib/zoned-datetime.js';

test('a wall time in a zone becomes RFC 3339 UTC', (t) => {
  t.is(wallTimeToUtc('2026-11-23T10:00', 'UTC'), '2026-11-23T10:00:00Z');
  t.is(wallTimeToUtc('2026-11-23T10:00', 'Europe/Berlin'), '2026-11-23T09:00:00Z', 'winter time, UTC+1');
  t.is(wallTimeToUtc('2026-07-01T10:00:30', 'Europe/Berlin'), '2026-07-01T08:00:30Z', 'summer time, UTC+2');
  t.is(wallTimeToUtc('2026-01-01T00:30', 'America/New_York'), '2026-01-01T05:30:00Z', 'the day changes');
  t.is(wallTimeToUtc('2026-03-10T12:00', 'Asia/Kolkata'), '2026-03-10T06:30:00Z', 'half-hour offsets');
  t.is(wallTimeToUtc('', 'UTC'), undefined);
  t.is(wallTimeToUtc('2026-11-23', 'UTC'), undefined);
});

test('a stored date-time is shown back as the wall time of the zone', (t) => {
  t.is(utcToWallTime('2026-11-23T10:00:00Z', 'UTC'), '2026-11-23T10:00');
  t.is(utcToWallTime('2026-11-23T09:00:00Z', 'Europe/Berlin'), '2026-11-23T10:00');
  t.is(utcToWallTime('2026-11-23T10:00:05+02:00', 'UTC'), '2026-11-23T08:00:05');
  t.is(utcToWallTime('2026-11-23', 'UTC'), '2026-11-23T00:00', 'a date is midnight UTC');
  t.is(utcToWallTime('next tuesday', 'UTC'), undefined);
  t.is(utcToWallTime('', 'UTC'), undefined);
});

test('both ways agree across a daylight-saving change', (t) => {
  for (const wall of ['2026-03-29T01:30', '2026-03-29T03:30', '2026-10-25T01:30', '2026-10-25T03:30']) {
    const utc = wallTimeToUtc(wall, 'Europe/Berlin');
    t.is(utcToWallTime(utc ?? '', 'Europe/Berlin'), wall, wall);
  }
  t.true(isKnownTimeZone('Europe/Berlin'));
  t.false(isKnownTimeZone('Mars/Olympus'));
});
