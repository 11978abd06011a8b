/** The identity of a browser session opened with a pasted credential. */
import test from 'ava';
import { browserSessionIdentity, SESSION_PARENT } from '../src/index.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const HOUR = 3_600_000;
const token = { id: 'tok-1', method: 'METHOD_TOKEN' as const, createdAt: '', updatedAt: '', metadata: { 'io.flipt.auth.token.name': 'team', 'io.flipt.auth.token.namespace': 'team-a' } };

test('a session keeps the method and metadata (so a scoped token stays scoped) and names its token', (t) => {
  const identity = browserSessionIdentity(token, NOW, HOUR);
  t.is(identity.method, 'METHOD_TOKEN');
  t.deepEqual(identity.metadata, { ...token.metadata, [SESSION_PARENT]: 'tok-1' });
  t.deepEqual(identity.expiresAt, new Date(NOW.getTime() + HOUR), 'a token that never ends: the session lifetime');
});

test('a session ends when its credential does, when that comes first', (t) => {
  const soon = new Date(NOW.getTime() + 60_000).toISOString();
  t.deepEqual(browserSessionIdentity({ ...token, expiresAt: soon }, NOW, HOUR).expiresAt, new Date(soon));
  const later = new Date(NOW.getTime() + 5 * HOUR).toISOString();
  t.deepEqual(browserSessionIdentity({ ...token, expiresAt: later }, NOW, HOUR).expiresAt, new Date(NOW.getTime() + HOUR));
});

test('a session opened from a session hangs off the original; a JWT session names none', (t) => {
  const session = { ...token, id: 'sess-1', metadata: { ...token.metadata, [SESSION_PARENT]: 'tok-1' } };
  t.is(browserSessionIdentity(session, NOW, HOUR).metadata[SESSION_PARENT], 'tok-1');
  const { id: _id, ...jwt } = { ...token, method: 'METHOD_JWT' as const, metadata: { 'io.flipt.auth.jwt.sub': 'ci', [SESSION_PARENT]: 'forged' } };
  t.deepEqual(browserSessionIdentity(jwt, NOW, HOUR).metadata, { 'io.flipt.auth.jwt.sub': 'ci' }, 'a claim cannot tie it to a token');
});
