import test from 'ava';
import { inOrder, moveBy, moveItem, sameOrder } from '../src/lib/reorder.js';

test('moving an item to another place, or nowhere', (t) => {
  t.deepEqual(moveItem(['a', 'b', 'c', 'd'], 0, 2), ['b', 'c', 'a', 'd']);
  t.deepEqual(moveItem(['a', 'b', 'c', 'd'], 3, 0), ['d', 'a', 'b', 'c']);
  const list = ['a', 'b'];
  t.is(moveItem(list, 1, 1), list);
  t.is(moveItem(list, 1, 5), list);
});

test('moving one step up or down stops at the ends', (t) => {
  t.deepEqual(moveBy(['a', 'b', 'c'], 'b', -1), ['b', 'a', 'c']);
  t.deepEqual(moveBy(['a', 'b', 'c'], 'b', 1), ['a', 'c', 'b']);
  const list = ['a', 'b'];
  t.is(moveBy(list, 'a', -1), list);
  t.is(moveBy(list, 'b', 1), list);
  t.is(moveBy(list, 'z', 1), list);
});

test('order comparison and putting items in an order', (t) => {
  t.true(sameOrder(['a', 'b'], ['a', 'b']));
  t.false(sameOrder(['a', 'b'], ['b', 'a']));
  t.false(sameOrder(['a'], ['a', 'b']));
  t.deepEqual(inOrder([{ id: 'a' }, { id: 'b' }, { id: 'c' }], ['c', 'a']).map((i) => i.id), ['c', 'a', 'b']);
});
