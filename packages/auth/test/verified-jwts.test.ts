/** Remembered JWT verifications: used until the token expires or the verification is a minute old, never past either. */
import test from 'ava';
import type { Authentication } from '@ensign/core';
import { VerifiedJwts } from '../src/verified-jwts.js';

const T0 = Date.UTC(2026, 0, 1);
const authentication = (expiresAt?: number): Authentication => ({
  id: 'jwt',
  method: 'METHOD_JWT',
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(),
  metadata: {},
  ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
});

test('a verified token is remembered for at most maxAgeMs', (t) => {
  const jwts = new VerifiedJwts({ maxAgeMs: 1000 });
  t.is(jwts.get('a.b.c', T0), undefined);
  const verified = authentication();
  jwts.remember('a.b.c', verified, T0);
  t.is(jwts.get('a.b.c', T0 + 999), verified);
  t.is(jwts.get('a.b.c', T0 + 1000), undefined, 'checked again once the verification is maxAgeMs old');
  t.is(jwts.get('a.b.c', T0 + 10), undefined, 'and forgotten');
});

test('a token is never used past its own expiry', (t) => {
  const jwts = new VerifiedJwts({ maxAgeMs: 60_000 });
  jwts.remember('soon', authentication(T0 + 500), T0);
  t.truthy(jwts.get('soon', T0 + 499));
  t.is(jwts.get('soon', T0 + 500), undefined);
  jwts.remember('gone', authentication(T0 - 1), T0);
  t.is(jwts.get('gone', T0), undefined, 'an already expired token is not remembered');
});

test('other tokens are not answered from a remembered one, and the number remembered is bounded', (t) => {
  const jwts = new VerifiedJwts({ max: 2 });
  jwts.remember('one', authentication(), T0);
  jwts.remember('two', authentication(), T0);
  jwts.remember('three', authentication(), T0);
  t.is(jwts.get('other', T0), undefined);
  t.is(jwts.get('one', T0), undefined, 'the least recently used is dropped');
  t.truthy(jwts.get('three', T0));
});
