import test from 'ava';
import { formatInstant, formatReadable, zoneAbbreviation } from '../src/lib/time-format.js';

const WINTER = '2026-01-15T14:03:27.456Z';
const SUMMER = '2026-07-15T14:03:27Z';

test('an instant to the minute, in the zone asked for and named after it', (t) => {
  t.is(formatInstant(WINTER, 'UTC'), '2026-01-15 14:03 UTC');
  t.is(formatInstant(WINTER, 'America/New_York'), '2026-01-15 09:03 EST');
  t.is(formatInstant(SUMMER, 'America/New_York'), '2026-07-15 10:03 EDT', 'daylight-saving time');
  t.is(formatInstant(SUMMER, 'Europe/Berlin'), '2026-07-15 16:03 CEST');
  t.is(formatInstant(WINTER, 'Europe/London'), '2026-01-15 14:03 GMT');
  t.is(formatInstant(SUMMER, 'Europe/London'), '2026-07-15 15:03 BST');
  t.is(formatInstant('2026-01-15T20:00:00Z', 'Asia/Tokyo'), '2026-01-16 05:00 GMT+9', 'the day changes; an offset where no abbreviation is common');
  t.is(formatInstant('2026-01-15T18:30:00Z', 'Asia/Kolkata'), '2026-01-16 00:00 GMT+5:30', 'midnight is 00, half-hour offsets');
});

test('to the second, from a string, a number or a Date, with any offset', (t) => {
  t.is(formatInstant(WINTER, 'UTC', { seconds: true }), '2026-01-15 14:03:27 UTC');
  t.is(formatInstant('2026-01-15T16:03:27+02:00', 'UTC', { seconds: true }), '2026-01-15 14:03:27 UTC');
  t.is(formatInstant(Date.parse(WINTER), 'America/New_York', { seconds: true }), '2026-01-15 09:03:27 EST');
  t.is(formatInstant(new Date(WINTER), 'UTC'), '2026-01-15 14:03 UTC');
});

test('text that is no time comes back as it is', (t) => {
  t.is(formatInstant('next tuesday', 'UTC'), 'next tuesday');
  t.is(formatInstant('', 'America/New_York'), '');
  t.is(formatInstant(Number.NaN, 'UTC'), '');
  t.is(formatReadable('garbage', 'UTC', 'en-US'), 'garbage');
});

test('a readable date in the locale asked for, with the zone named', (t) => {
  const spaced = (text: string) => text.replace(/\s/g, ' ');
  t.is(spaced(formatReadable(WINTER, 'UTC', 'en-US')), 'Jan 15, 2026, 2:03 PM UTC');
  t.is(spaced(formatReadable(WINTER, 'America/New_York', 'en-US')), 'Jan 15, 2026, 9:03 AM EST');
  t.is(spaced(formatReadable(SUMMER, 'Europe/Berlin', 'en-GB')), '15 Jul 2026, 16:03 CEST');
});

test('the zone abbreviation follows daylight-saving time', (t) => {
  t.is(zoneAbbreviation(Date.parse(WINTER), 'Europe/Berlin'), 'CET');
  t.is(zoneAbbreviation(Date.parse(SUMMER), 'Europe/Berlin'), 'CEST');
  t.is(zoneAbbreviation(Date.parse(WINTER), 'America/Los_Angeles'), 'PST');
  t.is(zoneAbbreviation(Date.parse(SUMMER), 'America/Los_Angeles'), 'PDT');
  t.is(zoneAbbreviation(Date.parse(SUMMER), 'UTC'), 'UTC');
  t.is(zoneAbbreviation(Date.parse(SUMMER), 'Etc/UTC'), 'UTC');
});
