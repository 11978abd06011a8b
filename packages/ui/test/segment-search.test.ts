import type { Segment } from '@ensign/core';
import test from 'ava';
import { matchTypeLabel, searchSegments } from '../src/lib/segment-search.js';
import { timeAgo } from '../src/lib/time-ago.js';

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

test('times read as how long ago', (t) => {
  const now = Date.parse('2026-05-10T12:00:00Z');
  t.is(timeAgo('2026-05-10T11:59:30Z', now), 'just now');
  t.is(timeAgo('2026-05-10T11:55:00Z', now), '5 minutes ago');
  t.is(timeAgo('2026-05-10T09:00:00Z', now), '3 hours ago');
  t.is(timeAgo('2026-05-09T12:00:00Z', now), 'yesterday');
  t.is(timeAgo('2025-05-10T12:00:00Z', now), 'last year');
  t.is(timeAgo('nonsense', now), '');
});
