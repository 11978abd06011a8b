import test from 'ava';
import { choiceLabel, DEFAULT_TIME_ZONE_CHOICE, readTimeZoneChoice, zoneOfChoice } from '../src/lib/time-preference.js';

test('the stored choice: utc or local, and local for anything else', (t) => {
  t.is(DEFAULT_TIME_ZONE_CHOICE, 'local');
  t.is(readTimeZoneChoice('utc'), 'utc');
  t.is(readTimeZoneChoice('local'), 'local');
  t.is(readTimeZoneChoice(null), 'local', 'nothing stored yet');
  t.is(readTimeZoneChoice(undefined), 'local');
  t.is(readTimeZoneChoice('UTC'), 'local', 'a hand-edited value');
  t.is(readTimeZoneChoice(''), 'local');
});

test('the zone a choice stands for, and how the Preferences page names it', (t) => {
  t.is(zoneOfChoice('utc', 'America/New_York'), 'UTC');
  t.is(zoneOfChoice('local', 'America/New_York'), 'America/New_York');
  t.is(choiceLabel('local', 'Europe/Berlin'), 'Local time (Europe/Berlin)');
  t.is(choiceLabel('utc', 'Europe/Berlin'), 'UTC');
});
