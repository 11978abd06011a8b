import type { Segment } from '@ensign/core';
import test from 'ava';
import { matchTypeLabel, searchSegments } from '../src/lib/segment-search.js';

const segment = (key: string, name: string, description = '', properties: string[] = []): Segment => ({
  namespaceKey: 'default',
  key,
  name,
  description,
  matchType: 'ALL_MATCH_TYPE',
  constraints: properties.map((property, i) => ({
    id: `${key}-${i}`,
    namespaceKey: 'default',
    segmentKey: key,
    type: 'STRING_COMPARISON_TYPE',
    property,
    operator: 'eq',
    value: 'x',
    description: '',
    createdAt: '',
    updatedAt: '',
  })),
  createdAt: '',
  updatedAt: '',
});

test('search matches every word against key, name, description and properties', (t) => {
  const all = [segment('beta', 'Beta testers', 'early access'), segment('eu', 'Europe', '', ['country']), segment('pro', 'Pro plan')];
  t.deepEqual(searchSegments(all, '').map((s) => s.key), ['beta', 'eu', 'pro']);
  t.deepEqual(searchSegments(all, 'BETA').map((s) => s.key), ['beta']);
  t.deepEqual(searchSegments(all, 'early beta').map((s) => s.key), ['beta']);
  t.deepEqual(searchSegments(all, 'country').map((s) => s.key), ['eu']);
  t.deepEqual(searchSegments(all, 'beta pro').map((s) => s.key), []);
  t.is(matchTypeLabel('ALL_MATCH_TYPE'), 'All');
  t.is(matchTypeLabel('ANY_MATCH_TYPE'), 'Any');
});
