/** LayeredMap: versions share what did not change, read like a Map, and fold their overlay when it grows. */
import test from 'ava';
import { LayeredMap } from '@ensign/engine';
import { prng } from './snapshot-builders.js';

test('a new version sees its changes; the old one is unchanged', (t) => {
  const v1 = LayeredMap.of([['a', 1], ['b', 2]]);
  const v2 = v1.with([['b', 20], ['c', 3]], ['a']);
  t.deepEqual([...v1.entries()], [['a', 1], ['b', 2]]);
  t.is(v1.size, 2);
  t.is(v2.get('a'), undefined);
  t.false(v2.has('a'));
  t.is(v2.get('b'), 20);
  t.is(v2.get('c'), 3);
  t.is(v2.size, 2);
  t.deepEqual(new Map(v2), new Map([['b', 20], ['c', 3]]));
});

test('a key removed and put back in one version is held; removing an absent key changes nothing', (t) => {
  const v1 = LayeredMap.of([['a', 1]]);
  const v2 = v1.with([['a', 5]], ['a', 'zzz']);
  t.is(v2.get('a'), 5);
  t.is(v2.size, 1);
  const v3 = v2.with([], ['a']).with([['a', 7]]);
  t.is(v3.get('a'), 7);
  t.is(v3.size, 1);
});

test('unchanged values are the same objects in every version', (t) => {
  const shared = { n: 1 };
  const v1 = LayeredMap.of<string, object>([['s', shared], ['x', { n: 2 }]]);
  const v2 = v1.with([['x', { n: 3 }]]);
  t.is(v2.get('s'), shared);
});

test('a version is frozen and has no writers', (t) => {
  const v = LayeredMap.of([['a', 1]]) as unknown as Map<string, number>;
  t.true(Object.isFrozen(v));
  t.throws(() => v.set('b', 2), { instanceOf: TypeError });
});

/** Entries by key: iteration order is not part of the contract. */
const sorted = (map: ReadonlyMap<string, number>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

test('a long random sequence of versions always agrees with a plain Map, through overlay folds', (t) => {
  const next = prng(7);
  const model = new Map<string, number>();
  let layered = LayeredMap.of<string, number>([]);
  for (let i = 0; i < 200; i++) model.set(`k${i}`, i);
  layered = LayeredMap.of(model);
  for (let step = 0; step < 3000; step++) {
    const put: Array<[string, number]> = [];
    const removed: string[] = [];
    for (let j = Math.floor(next() * 4); j > 0; j--) put.push([`k${Math.floor(next() * 400)}`, step]);
    for (let j = Math.floor(next() * 3); j > 0; j--) removed.push(`k${Math.floor(next() * 400)}`);
    for (const key of removed) model.delete(key);
    for (const [key, value] of put) model.set(key, value);
    layered = layered.with(put, removed);
    if (step % 97 === 0) t.deepEqual(sorted(layered), sorted(model), `step ${step}`);
  }
  t.is(layered.size, model.size);
  t.deepEqual(sorted(layered), sorted(model));
  for (const key of model.keys()) t.is(layered.get(key), model.get(key));
});
