/** Reconnection delays: exponential with jitter in the upper half of each step, capped, never below the floor. */
import test from 'ava';
import { Backoff } from '../src/source/backoff.js';

test('each step doubles up to the cap, drawn from its upper half', (t) => {
  const low = new Backoff({ minMs: 0, initialMs: 100, maxMs: 1000, random: () => 0 });
  t.deepEqual(Array.from({ length: 6 }, () => low.next()), [50, 100, 200, 400, 500, 500]);
  const high = new Backoff({ minMs: 0, initialMs: 100, maxMs: 1000, random: () => 1 });
  t.deepEqual(Array.from({ length: 6 }, () => high.next()), [100, 200, 400, 800, 1000, 1000]);
});

test('never below the floor; reset starts over', (t) => {
  const backoff = new Backoff({ minMs: 300, initialMs: 100, maxMs: 1000, random: () => 0 });
  t.deepEqual([backoff.next(), backoff.next(), backoff.next(), backoff.next()], [300, 300, 300, 400]);
  backoff.reset();
  t.is(backoff.next(), 300);
});
