import test from 'ava';
import { decodeReturnPath, encodeReturnPath, isReturnPath, RETURN_PATH_LIFETIME_MS } from '../src/lib/return-path.js';

const NOW = new Date('2030-01-30T12:00:00Z');

test('pages of the UI are worth returning to; the root, other origins and the APIs are not', (t) => {
  t.true(isReturnPath('/namespaces/shop/flags'));
  t.true(isReturnPath('/namespaces/shop/console?flag=checkout'));
  t.true(isReturnPath('/settings/tokens'));
  t.false(isReturnPath('/'));
  t.false(isReturnPath('/?x=1'));
  t.false(isReturnPath('//evil.example.com/x'));
  t.false(isReturnPath('/\\evil.example.com'));
  t.false(isReturnPath('https://evil.example.com/'));
  t.false(isReturnPath('/auth/v1/method/oidc/google/callback'));
  t.false(isReturnPath('/api/v1/namespaces'));
});

test('a stored path comes back within the login lifetime only', (t) => {
  const stored = encodeReturnPath('/namespaces/shop/flags', NOW);
  t.is(decodeReturnPath(stored, NOW), '/namespaces/shop/flags');
  t.is(decodeReturnPath(stored, new Date(NOW.getTime() + RETURN_PATH_LIFETIME_MS - 1)), '/namespaces/shop/flags');
  t.is(decodeReturnPath(stored, new Date(NOW.getTime() + RETURN_PATH_LIFETIME_MS + 1)), undefined);
});

test('anything else stored is ignored', (t) => {
  t.is(decodeReturnPath(null, NOW), undefined);
  t.is(decodeReturnPath('not json', NOW), undefined);
  t.is(decodeReturnPath(JSON.stringify({ path: '//evil.example.com', at: NOW.getTime() }), NOW), undefined);
  t.is(decodeReturnPath(JSON.stringify({ path: '/settings/tokens' }), NOW), undefined);
});
