import test from 'ava';
import { relativeTime, TOKEN_METADATA, tokenIdOf, tokenRows } from '../src/lib/token-list.js';

const NOW = new Date('2030-01-30T12:00:00Z');

test('rows carry name, description, namespace and expiry, newest first', (t) => {
  const rows = tokenRows(
    [
      { id: 'a', createdAt: '2030-01-01T00:00:00Z', metadata: { [TOKEN_METADATA.name]: 'initial_bootstrap_token' } },
      {
        id: 'b',
        createdAt: '2030-01-20T00:00:00Z',
        expiresAt: '2030-01-29T00:00:00Z',
        metadata: { [TOKEN_METADATA.name]: 'ci', [TOKEN_METADATA.description]: 'deploys', [TOKEN_METADATA.namespace]: 'shop' },
      },
      { id: 'c', createdAt: '2030-01-25T00:00:00Z', expiresAt: '2030-03-01T00:00:00Z', metadata: {} },
    ],
    NOW,
  );
  t.deepEqual(
    rows.map((r) => [r.id, r.name, r.description, r.namespace, r.expired]),
    [
      ['c', '', '', undefined, false],
      ['b', 'ci', 'deploys', 'shop', true],
      ['a', 'initial_bootstrap_token', '', undefined, false],
    ],
  );
  t.is(rows[2]?.expiresAt, undefined, 'never expires');
});

test('an authentication without an id is no token to list', (t) => {
  t.deepEqual(tokenRows([{ createdAt: '2030-01-01T00:00:00Z', metadata: {} }], NOW), []);
});

test('a browser session opened with a token is not listed, and stands for its token', (t) => {
  const token = { id: 'tok', createdAt: '2030-01-01T00:00:00Z', metadata: { [TOKEN_METADATA.name]: 'lead' } };
  const session = { id: 'sess', createdAt: '2030-01-02T00:00:00Z', metadata: { [TOKEN_METADATA.name]: 'lead', [TOKEN_METADATA.sessionOf]: 'tok' } };
  t.deepEqual(
    tokenRows([token, session], NOW).map((r) => r.id),
    ['tok'],
  );
  t.is(tokenIdOf(session), 'tok');
  t.is(tokenIdOf(token), 'tok');
});

test('relative times use the largest whole unit', (t) => {
  t.is(relativeTime(new Date('2030-03-01T12:00:00Z'), NOW), 'in 30 days');
  t.is(relativeTime(new Date('2030-01-30T10:00:00Z'), NOW), '2 hours ago');
  t.is(relativeTime(new Date('2030-01-31T12:00:00Z'), NOW), 'tomorrow');
  t.is(relativeTime(new Date('2031-06-01T12:00:00Z'), NOW), 'next year');
  t.is(relativeTime(new Date('2030-01-30T12:00:20Z'), NOW), 'now');
});

test('relative times rounded to the nearest unit when asked', (t) => {
  const almost = new Date(Date.parse('2030-03-01T12:00:00Z') - 5_000);
  t.is(relativeTime(almost, NOW), 'in 29 days');
  t.is(relativeTime(almost, NOW, 'en', Math.round), 'in 30 days');
});
