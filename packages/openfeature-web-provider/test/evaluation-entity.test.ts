import test from 'ava';
import { entityOf } from '../src/evaluation-entity.js';

test('targetingKey is the entity id and stays out of the context', (t) => {
  t.deepEqual(entityOf({ targetingKey: 'user-1', plan: 'pro' }), { entityId: 'user-1', context: { plan: 'pro' } });
});

test('without a targetingKey the entity id is empty', (t) => {
  t.deepEqual(entityOf({ plan: 'pro' }), { entityId: '', context: { plan: 'pro' } });
});

test('values that are not strings are written as text; null and undefined are left out', (t) => {
  const at = new Date('2026-03-01T09:00:00.000Z');
  const { context } = entityOf({ seats: 12, ratio: 0.5, admin: true, beta: false, since: at, tags: ['a', 'b'], address: { city: 'Lyon' }, none: null });
  t.deepEqual(context, { seats: '12', ratio: '0.5', admin: 'true', beta: 'false', since: '2026-03-01T09:00:00.000Z', tags: '["a","b"]', address: '{"city":"Lyon"}' });
});
