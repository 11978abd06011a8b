import type { Rule } from '@ensign/core';
import test from 'ava';
import { failedPrerequisiteOf, skippedByWindow } from '../src/lib/outcome-notes.js';

test('the failed prerequisite OFREP names, in its metadata or flag metadata', (t) => {
  t.is(failedPrerequisiteOf({ key: 'a', reason: 'PREREQUISITE_FAILED', metadata: { failedPrerequisite: 'base' } }), 'base');
  t.is(failedPrerequisiteOf({ key: 'a', reason: 'PREREQUISITE_FAILED', flagMetadata: { failedPrerequisite: 'base' } }), 'base');
  t.is(failedPrerequisiteOf({ key: 'a', reason: 'DEFAULT', metadata: { failedPrerequisite: 'base' } }), undefined);
  t.is(failedPrerequisiteOf({ key: 'a', reason: 'PREREQUISITE_FAILED' }), undefined);
});

test('the rules skipped at the time for their window, by position', (t) => {
  const rule = (rank: number, window: Partial<Rule>) => ({ rank, id: `r${rank}`, ...window }) as Rule;
  const at = Date.parse('2030-01-10T00:00:00Z');
  t.deepEqual(skippedByWindow([rule(3, { validUntil: '2030-01-01T00:00:00Z' }), rule(1, {}), rule(2, { validFrom: '2030-02-01T00:00:00Z' })], at), [
    { position: 2, state: 'before', bound: '2030-02-01T00:00:00Z' },
    { position: 3, state: 'after', bound: '2030-01-01T00:00:00Z' },
  ]);
});
