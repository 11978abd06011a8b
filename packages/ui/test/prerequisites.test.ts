import type { Flag } from '@ensign/core';
import test from 'ava';
import { conditionText, dependentsOf, parentCandidates, prerequisiteOf, unmetText, withoutPrerequisite, withPrerequisite } from '../src/lib/prerequisites.js';

const flag = (key: string, prerequisites?: Flag['prerequisites']): Flag =>
  ({ key, name: key, description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', namespaceKey: 'default', variants: [], createdAt: '', updatedAt: '', ...(prerequisites === undefined ? {} : { prerequisites }) }) as Flag;

test('a condition in words, and what did not hold when it failed', (t) => {
  t.is(conditionText({ flagKey: 'a', enabled: true }), 'is on');
  t.is(conditionText({ flagKey: 'a', enabled: false }), 'is off');
  t.is(conditionText({ flagKey: 'a', variants: ['beta'] }), 'serves beta');
  t.is(conditionText({ flagKey: 'a', variants: ['a', 'b'] }), 'serves one of a, b');
  t.is(unmetText({ flagKey: 'a', enabled: true }), 'was not on');
  t.is(unmetText({ flagKey: 'a', enabled: false }), 'was not off');
  t.is(unmetText({ flagKey: 'a', variants: ['a', 'b'] }), 'did not serve one of a, b');
});

test('the dependents of a flag: the flags that name it, by key, with their condition', (t) => {
  const flags = [flag('zeta', [{ flagKey: 'base', enabled: false }]), flag('alpha', [{ flagKey: 'other', enabled: true }, { flagKey: 'base', variants: ['x'] }]), flag('base'), flag('none')];
  t.deepEqual(
    dependentsOf('base', flags).map((d) => `${d.flag.key} ${conditionText(d.prerequisite)}`),
    ['alpha serves x', 'zeta is off'],
  );
});

test('adding replaces the prerequisite on the same parent, removing leaves the others; [] clears', (t) => {
  const list = [{ flagKey: 'a', enabled: true }];
  t.deepEqual(withPrerequisite(list, { flagKey: 'b', enabled: false }), [{ flagKey: 'a', enabled: true }, { flagKey: 'b', enabled: false }]);
  t.deepEqual(withPrerequisite(list, { flagKey: 'a', variants: ['x'] }), [{ flagKey: 'a', variants: ['x'] }]);
  t.deepEqual(withPrerequisite(undefined, { flagKey: 'a', enabled: true }), list);
  t.deepEqual(withoutPrerequisite(list, 'a'), []);
});

test('a choice makes a prerequisite once complete; the candidates leave out the flag and its parents', (t) => {
  t.deepEqual(prerequisiteOf('a', 'on', []), { flagKey: 'a', enabled: true });
  t.deepEqual(prerequisiteOf('a', 'off', ['x']), { flagKey: 'a', enabled: false });
  t.is(prerequisiteOf('a', 'variants', []), undefined, 'no variant picked yet');
  t.deepEqual(prerequisiteOf('a', 'variants', ['x', 'y']), { flagKey: 'a', variants: ['x', 'y'] });
  t.is(prerequisiteOf('', 'on', []), undefined);
  const me = flag('me', [{ flagKey: 'b', enabled: true }]);
  t.deepEqual(
    parentCandidates(me, [flag('c'), me, flag('b'), flag('a')]).map((f) => f.key),
    ['a', 'c'],
  );
});
