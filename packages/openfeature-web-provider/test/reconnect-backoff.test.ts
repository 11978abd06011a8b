import test from 'ava';
import { ReconnectBackoff } from '../src/reconnect-backoff.js';

test('delays double up to the maximum, drawn from the upper half of each step', (t) => {
  const low = new ReconnectBackoff(1_000, 8_000, () => 0);
  t.deepEqual([1, 2, 3, 4, 5].map(() => low.next()), [1_000, 1_000, 2_000, 4_000, 4_000]);
  const high = new ReconnectBackoff(1_000, 8_000, () => 1);
  t.deepEqual([1, 2, 3, 4, 5].map(() => high.next()), [1_000, 2_000, 4_000, 8_000, 8_000]);
});

test('no delay is shorter than the initial one, and reset starts over', (t) => {
  const backoff = new ReconnectBackoff(500, 60_000, () => 0.3);
  for (let i = 0; i < 40; i++) t.true(backoff.next() >= 500);
  backoff.reset();
  t.is(backoff.next(), 500);
});
