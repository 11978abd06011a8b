import test from 'ava';
import { formatDuration, parseGoDuration } from '../src/config/duration.js';

const VALID: Array<[string, number]> = [
  ['0', 0],
  ['30s', 30_000],
  ['5m', 300_000],
  ['1h', 3_600_000],
  ['1h30m', 5_400_000],
  ['2h45m10s', 9_910_000],
  ['250ms', 250],
  ['1.5s', 1500],
  ['.5m', 30_000],
  ['1500us', 1.5],
  ['2000000ns', 2],
  ['1m30s500ms', 90_500],
];

for (const [text, ms] of VALID) {
  test(`parses ${text} as ${ms} ms`, (t) => {
    t.is(parseGoDuration(text), ms);
  });
}

for (const text of ['', '30', '1d', 's', '30 s', '-5s', '1h-30m', '1.2.3s', 'abc', '5mm']) {
  test(`refuses ${JSON.stringify(text)}`, (t) => {
    t.is(parseGoDuration(text), undefined);
  });
}

test('formats milliseconds the way the reference prints defaults', (t) => {
  t.is(formatDuration(0), '0');
  t.is(formatDuration(30_000), '30s');
  t.is(formatDuration(5_400_000), '1h30m');
  t.is(formatDuration(90_500), '1m30s500ms');
});
