/** OpenFeature's context as Flipt's entity and string context, and what each kind of value becomes. */
import test from 'ava';
import { fliptInput } from '../src/context/flipt-context.js';

test('targetingKey is the entity and no context value; strings are kept as they are', (t) => {
  t.deepEqual(fliptInput('f', { targetingKey: 'u1', plan: 'pro' }), { flagKey: 'f', entityId: 'u1', context: { plan: 'pro' } });
});

test('numbers as JavaScript writes them, booleans as true/false, dates as RFC 3339 UTC, objects and arrays as JSON, null left out', (t) => {
  const { context } = fliptInput('f', {
    targetingKey: 'u1',
    seats: 12,
    ratio: 0.5,
    beta: true,
    off: false,
    signedUp: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
    tags: ['a', 'b'],
    address: { country: 'de' },
    gone: null,
  });
  t.deepEqual(context, { seats: '12', ratio: '0.5', beta: 'true', off: 'false', signedUp: '2026-01-02T03:04:05.006Z', tags: '["a","b"]', address: '{"country":"de"}' });
});

test('without a targetingKey the entity is "", as Flipt\'s provider sends it', (t) => {
  t.is(fliptInput('f', {}).entityId, '');
  t.is(fliptInput('f', { plan: 'pro' }).entityId, '');
});
