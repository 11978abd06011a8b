import test from 'ava';
import { isAppError } from '@ensign/core';
import { fromTimestamp } from '../src/proto-values.js';

test('a Timestamp outside its defined range is refused as invalid, not failed on', (t) => {
  for (const ts of [{ seconds: '9223372036854775807', nanos: 0 }, { seconds: '-62135596801', nanos: 0 }, { seconds: '1', nanos: -1 }, { seconds: '1', nanos: 1_000_000_000 }]) {
    const err = t.throws(() => fromTimestamp(ts));
    t.true(isAppError(err) && err.code === 3, `${ts.seconds}s ${ts.nanos}ns: ${String(err)}`);
  }
  t.is(fromTimestamp({ seconds: '253402300799', nanos: 999_999_999 }), '9999-12-31T23:59:59.999Z');
  t.is(fromTimestamp({ seconds: '-62135596800', nanos: 0 }), '0001-01-01T00:00:00.000Z');
  t.is(fromTimestamp({ seconds: '0', nanos: 0 }), undefined);
});
