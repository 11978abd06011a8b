import test from 'ava';
import { describeDuration, parseGoDuration, windowChoice, windowLabel, windowOptions } from '../src/lib/usage-window.js';

test('Go durations as the service writes and takes them', (t) => {
  t.is(parseGoDuration('720h'), 720 * 3_600_000);
  t.is(parseGoDuration('720h0m0s'), 720 * 3_600_000);
  t.is(parseGoDuration('1h30m'), 90 * 60_000);
  t.is(parseGoDuration('2s'), 2000);
  t.is(parseGoDuration('1.5h'), 90 * 60_000);
  t.is(parseGoDuration('250ms'), 250);
  t.is(parseGoDuration('.5h'), 30 * 60_000);
  t.is(parseGoDuration(''), undefined);
  t.is(parseGoDuration('0s'), undefined, 'not a window');
  t.is(parseGoDuration('30d'), undefined, 'Go has no days');
  t.is(parseGoDuration('-5m'), undefined);
  t.is(parseGoDuration('5 m'), undefined);
});

test('a duration as a person says it', (t) => {
  t.is(describeDuration(30 * 86_400_000), '30 days');
  t.is(describeDuration(86_400_000), '1 day');
  t.is(describeDuration(90 * 60_000), '1 hour 30 minutes');
  t.is(describeDuration(2000), '2 seconds');
  t.is(describeDuration(250), '250 ms');
  t.is(windowLabel('720h0m0s'), '30 days');
  t.is(windowLabel('whatever'), 'whatever');
});

test('the window selector: presets by length, and a window of one’s own added to them in order', (t) => {
  t.is(windowChoice('720h0m0s'), '720h');
  t.is(windowChoice('2s'), '2s');
  t.deepEqual(
    windowOptions('720h').map((o) => o.label),
    ['7 days', '30 days', '90 days'],
  );
  t.deepEqual(
    windowOptions('2s').map((o) => [o.window, o.label]),
    [
      ['2s', '2 seconds'],
      ['168h', '7 days'],
      ['720h', '30 days'],
      ['2160h', '90 days'],
    ],
  );
  t.deepEqual(
    windowOptions('336h').map((o) => o.label),
    ['7 days', '14 days', '30 days', '90 days'],
  );
  t.is(windowOptions(undefined).length, 3);
});
